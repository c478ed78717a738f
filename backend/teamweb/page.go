package teamweb

import (
	"context"
	"errors"
	"mime"
	"net/http"
	"slices"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/lazy"
	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/teamauth"
)

// The page at / is plain HTML with forms, no script: each form posts to
// /web/…, which does what the JSON API does and comes back to the page.
// A form is accepted only from the server's own pages (Origin), and the
// session cookie is SameSite, so another site can neither send one nor
// ride a signed-in browser.
func (w *Web) registerPage(mount func(string, http.Handler)) {
	mount("GET /{$}", http.HandlerFunc(w.home))
	mount("POST /web/workspaces/{ws}/projects", w.form(func(r *http.Request, p teamauth.Person) (string, error) {
		_, err := w.CreateProject(r.Context(), p.ID, r.PathValue("ws"), r.PostFormValue("name"))
		return "ws-" + r.PathValue("ws"), err
	}))
	mount("POST /web/workspaces/{ws}/members", w.form(func(r *http.Request, p teamauth.Person) (string, error) {
		_, err := w.cfg.Auth.Invite(r.Context(), p.ID, r.PathValue("ws"), teamauth.Invitation{
			Email: r.PostFormValue("email"), Role: teamauth.Role(r.PostFormValue("role"))})
		return "ws-" + r.PathValue("ws"), err
	}))
	mount("POST /web/connections/{conn}/projects", w.form(func(r *http.Request, p teamauth.Person) (string, error) {
		access := r.PostFormValue("access")
		if access != "on" && access != "off" {
			return "", badInput("access is on or off")
		}
		_, err := w.SetProject(r.Context(), p.ID, r.PathValue("conn"), r.PostFormValue("project"), access == "on")
		return "conn-" + r.PathValue("conn"), err
	}))
	mount("POST /web/connections/{conn}/revoke", w.form(func(r *http.Request, p teamauth.Person) (string, error) {
		_, err := w.Revoke(r.Context(), p.ID, r.PathValue("conn"))
		return "conn-" + r.PathValue("conn"), err
	}))
}

type formFunc func(r *http.Request, p teamauth.Person) (anchor string, err error)

// form checks where the post came from and who sent it, runs fn, and
// sends the browser back to the page (or shows it with what went wrong).
func (w *Web) form(fn formFunc) http.HandlerFunc {
	return func(rw http.ResponseWriter, r *http.Request) {
		if !w.cfg.Auth.SameOrigin(r) {
			w.fail(rw, http.StatusForbidden, "this form was sent from another site: use the form on "+w.cfg.Auth.PublicURL()+"/")
			return
		}
		p, err := w.cfg.Auth.SessionPerson(r)
		if errors.Is(err, teamauth.ErrNoSession) {
			http.Redirect(rw, r, w.cfg.Auth.LoginURL("/"), http.StatusSeeOther)
			return
		}
		if err != nil {
			w.fail(rw, http.StatusServiceUnavailable, "")
			return
		}
		if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/x-www-form-urlencoded" {
			w.fail(rw, http.StatusBadRequest, "send the form from the page at "+w.cfg.Auth.PublicURL()+"/")
			return
		}
		r.Body = http.MaxBytesReader(rw, r.Body, 64<<10)
		if err := r.ParseForm(); err != nil {
			w.fail(rw, http.StatusBadRequest, "the form cannot be read: send it again from the page")
			return
		}
		anchor, err := fn(r, p)
		if err != nil {
			code := teamauth.HTTPStatus(err)
			msg := err.Error()
			if code == http.StatusInternalServerError {
				w.cfg.Logger.Error("team page", "err", err)
				code, msg = http.StatusServiceUnavailable, ""
			}
			w.render(rw, r.Context(), p, code, msg)
			return
		}
		http.Redirect(rw, r, "/#"+anchor, http.StatusSeeOther)
	}
}

// home is the page a person opens: signed out, a Sign in link.
func (w *Web) home(rw http.ResponseWriter, r *http.Request) {
	p, err := w.cfg.Auth.SessionPerson(r)
	switch {
	case errors.Is(err, teamauth.ErrNoSession):
		if w.cfg.Auth.LandFromOtherSite(rw, r, "/") {
			return // a link from another site: asked again from here, with the session
		}
		w.write(rw, http.StatusOK, pageData{SignIn: w.cfg.Auth.LoginURL("/")})
	case err != nil:
		w.fail(rw, http.StatusServiceUnavailable, "")
	default:
		w.render(rw, r.Context(), p, http.StatusOK, "")
	}
}

type pageData struct {
	SignIn     string // signed out: where to sign in
	Person     teamauth.Person
	MCP        string // the address assistants connect to
	Error      string
	Workspaces []workspaceView
}

type workspaceView struct {
	teamauth.Workspace
	CanWrite   bool
	IsOwner    bool
	Projects   []notes.Project
	Members    []teamauth.Member
	Assistants []assistantView
}

type assistantView struct {
	connect.Connection
	Projects []projectAccess
}

type projectAccess struct {
	ID, Name string
	On       bool
}

// render draws the page for p, with msg at the top when it is not empty.
func (w *Web) render(rw http.ResponseWriter, ctx context.Context, p teamauth.Person, code int, msg string) {
	d, err := w.page(ctx, p)
	if err != nil {
		w.cfg.Logger.Error("team page", "err", err)
		w.fail(rw, http.StatusServiceUnavailable, "")
		return
	}
	d.Error = msg
	w.write(rw, code, d)
}

func (w *Web) page(ctx context.Context, p teamauth.Person) (pageData, error) {
	d := pageData{Person: p, MCP: w.cfg.Auth.PublicURL() + connect.ResourcePath}
	wss, err := w.cfg.Auth.Workspaces(ctx, p.ID)
	if err != nil {
		return d, err
	}
	mine, err := w.Assistants(ctx, p.ID)
	if err != nil {
		return d, err
	}
	for _, ws := range wss {
		v := workspaceView{Workspace: ws, CanWrite: ws.Role != teamauth.Viewer, IsOwner: ws.Role == teamauth.Owner}
		if v.Projects, err = w.cfg.Notes.ListProjects(ctx, ws.ID); err != nil {
			return d, err
		}
		if v.Members, err = w.cfg.Auth.Members(ctx, p.ID, ws.ID); err != nil {
			return d, err
		}
		for _, c := range mine {
			if c.Workspace != ws.ID {
				continue
			}
			a := assistantView{Connection: c}
			for _, pr := range v.Projects {
				a.Projects = append(a.Projects, projectAccess{ID: pr.ID, Name: pr.Name, On: slices.Contains(c.Projects, pr.ID)})
			}
			v.Assistants = append(v.Assistants, a)
		}
		d.Workspaces = append(d.Workspaces, v)
	}
	return d, nil
}

// fail is a page that says what went wrong, without the person's data.
func (w *Web) fail(rw http.ResponseWriter, code int, msg string) {
	if msg == "" {
		msg = "the team server cannot reach its database right now: try again in a moment"
	}
	w.write(rw, code, pageData{Error: msg})
}

func (w *Web) write(rw http.ResponseWriter, code int, d pageData) {
	h := rw.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	rw.WriteHeader(code)
	if err := homePage().Execute(rw, d); err != nil {
		w.cfg.Logger.Warn("writing the team page", "err", err)
	}
}

var homePage = lazy.HTML("home", `<!doctype html>
<html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>osFoundry team server</title>
<style>
:root{color-scheme:light dark;font:15px/1.45 system-ui,sans-serif}
body{max-width:46rem;margin:2rem auto;padding:0 1rem}
header{display:flex;justify-content:space-between;align-items:baseline;gap:1rem;flex-wrap:wrap}
h1{font-size:1.3rem;margin:0}h2{font-size:1.1rem;margin:2rem 0 .5rem}h3{font-size:1rem;margin:1.2rem 0 .4rem}
section{border-top:1px solid #8884;margin-top:1.5rem}
ul{padding-left:1.2rem}li{margin:.2rem 0}
form{display:inline}button,input,select{font:inherit}
.err{border:1px solid #c33;background:#c331;padding:.5rem .8rem;border-radius:6px}
.muted{opacity:.75}.row{display:flex;gap:.5rem;align-items:center;flex-wrap:wrap;margin:.5rem 0}
code{overflow-wrap:anywhere}
</style>
<header><h1>osFoundry team server</h1>
{{if .Person.ID}}<span><a href="/needs-you">Needs you</a> · {{or .Person.Name .Person.Email}} · <form method="post" action="/auth/logout"><button>Sign out</button></form></span>{{end}}</header>
{{if .Error}}<p class="err" role="alert">{{.Error}}</p>{{end}}
{{if .SignIn}}<p>Sign in with your company account to see your workspaces, projects and assistants.</p>
<p><a href="{{.SignIn}}">Sign in</a></p>{{end}}
{{if .Person.ID}}
<p>Connect an assistant to <code>{{.MCP}}</code>: in claude.ai, Settings → Connectors → Add custom connector; in ChatGPT, a connector with this URL; in Codex, an MCP server with this URL. You approve it here, then give it projects below.</p>
{{range .Workspaces}}{{$ws := .}}
<section id="ws-{{.ID}}"><h2>{{.Name}} <span class="muted">· {{.Role}}</span></h2>
<h3>Projects</h3>
{{if .Projects}}<ul>{{range .Projects}}<li>{{.Name}}</li>{{end}}</ul>{{else}}<p class="muted">No projects yet.</p>{{end}}
{{if .CanWrite}}<form method="post" action="/web/workspaces/{{.ID}}/projects" class="row">
<input name="name" required maxlength="200" aria-label="New project name" placeholder="New project name"><button>Create project</button></form>{{end}}
<h3>Your assistants</h3>
{{range .Assistants}}<div id="conn-{{.ID}}"><p><strong>{{.DisplayName}}</strong> <span class="muted">· {{.StatusText}}</span></p>
{{if eq .Status "connected"}}{{$c := .}}<ul aria-label="Projects {{.DisplayName}} can reach">{{range .Projects}}<li>{{.Name}}: {{if .On}}can reach it ·
<form method="post" action="/web/connections/{{$c.ID}}/projects"><input type="hidden" name="project" value="{{.ID}}"><input type="hidden" name="access" value="off"><button>Remove access</button></form>{{else}}<span class="muted">no access</span> ·
<form method="post" action="/web/connections/{{$c.ID}}/projects"><input type="hidden" name="project" value="{{.ID}}"><input type="hidden" name="access" value="on"><button>Give access</button></form>{{end}}</li>{{end}}</ul>
<form method="post" action="/web/connections/{{.ID}}/revoke"><button>Revoke</button></form>{{end}}</div>
{{else}}<p class="muted">No assistant connected to this workspace yet: add the URL above to one and approve it.</p>{{end}}
<h3>Members</h3>
<ul>{{range .Members}}<li>{{or .Name .Email}} <span class="muted">· {{.Role}}{{if .Runner}} · runner{{end}}{{if .Invited}} · invited{{end}}</span></li>{{end}}</ul>
{{if .IsOwner}}<form method="post" action="/web/workspaces/{{.ID}}/members" class="row">
<input name="email" type="email" required aria-label="Email to invite" placeholder="teammate@example.com">
<select name="role" aria-label="Role"><option value="editor">editor</option><option value="viewer">viewer</option><option value="owner">owner</option></select>
<button>Invite</button></form>{{end}}
</section>{{end}}
{{end}}
</html>
`)
