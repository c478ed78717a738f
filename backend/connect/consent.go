package connect

import (
	"crypto/subtle"
	"errors"
	"net/http"
	"net/url"

	"github.com/osfoundry/desktop/backend/lazy"
	"github.com/osfoundry/desktop/backend/tools"
)

// capabilityText says each scope in plain words (docs/reference.md §6, exact).
var capabilityText = map[string]string{
	tools.ScopeRead:   "Read supported resources in projects you add",
	tools.ScopeWrite:  "Change supported resources where you have edit access",
	tools.ScopeRun:    "Run sessions where you grant a runner role",
	tools.ScopeModels: "Use models you have set up in osFoundry",
}

func constantEqual(a, b string) bool {
	return a != "" && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

var pageTmpl = lazy.HTML("page", `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style nonce="{{.Nonce}}">
body{font:15px/1.5 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1d1d1f}
h1{font-size:1.4rem}fieldset{border:1px solid #ccc;border-radius:8px;margin:1rem 0;padding:.5rem 1rem}
bdi{unicode-bidi:isolate}legend{font-weight:600}.muted{color:#666}.err{color:#b00020;font-weight:600}
button{font:inherit;padding:.5rem 1.2rem;border-radius:6px;border:1px solid #888;cursor:pointer}
button[value=connect]{background:#0a66ff;color:#fff;border-color:#0a66ff}
</style></head><body>
<h1>{{.Title}}</h1>
{{if .Error}}<p class="err" role="alert">{{.Error}}</p>{{end}}
{{if .Consent}}{{with .Consent}}
<p>Assistant: <strong><bdi>{{.Client}}</bdi></strong> <span class="muted">(the name the assistant gave itself; check where it returns to)</span></p>
<p>Returns to: <strong>{{.ReturnsTo}}</strong></p>
<form method="post" action="{{.Action}}">
<input type="hidden" name="request" value="{{.Request}}">
<input type="hidden" name="csrf" value="{{.CSRF}}">
<fieldset><legend>Workspace to connect</legend>
{{range $i, $w := .Workspaces}}<label><input type="radio" name="workspace" value="{{$w.ID}}" data-name="{{$w.Name}}"{{if eq $i 0}} checked{{end}} required> {{$w.Name}}</label><br>{{else}}<p class="err">You have no workspace you can connect. Ask its owner for a role.</p>{{end}}
</fieldset>
<fieldset><legend>Requested capabilities</legend><ul>
{{range .Capabilities}}<li>{{.}}</li>{{end}}</ul></fieldset>
<fieldset><legend>Connection</legend>
{{range .Choices}}<label><input type="radio" name="connection" value="{{.Value}}"{{if .Checked}} checked{{end}}> {{.Label}}{{if .Carries}}<span class="muted"> — {{.Carries}}</span>{{end}}</label><br>{{end}}
</fieldset>
<p><label><input type="checkbox" name="approve" value="yes"> I approve connecting this assistant to <span id="ws">{{.FirstWorkspace}}</span></label></p>
<p><button type="submit" name="action" value="connect">Connect</button> <button type="submit" name="action" value="cancel" formnovalidate>Cancel</button></p>
</form>
<script nonce="{{$.Nonce}}">
for (const r of document.querySelectorAll('input[name=workspace]'))
  r.addEventListener('change', () => { document.getElementById('ws').textContent = r.dataset.name; });
</script>
{{end}}{{else}}<p>{{.Message}}</p>{{end}}
{{if .Pending}}<ul>{{range .Pending}}<li><a href="{{.Href}}"><bdi>{{.Client}}</bdi></a> — returns to <strong>{{.ReturnsTo}}</strong>, started {{.Age}}{{if .Mine}} (in this browser){{else}} <span class="muted">(not started in this browser)</span>{{end}}</li>
{{end}}</ul>{{end}}
</body></html>`)

type consentView struct {
	Client, ReturnsTo, Action, Request, CSRF, FirstWorkspace string
	Workspaces                                               []Workspace
	Capabilities                                             []string
	Choices                                                  []connectionChoice
}

type pageView struct {
	Title, Message, Error, Nonce string
	Consent                      *consentView
	Pending                      []pendingRequest
}

// renderPage writes a page with headers that keep it out of frames and
// caches and allow only its own nonce'd style and script, and form
// submissions to itself and to the client's return address.
func renderPage(w http.ResponseWriter, status int, v pageView, formTarget string) {
	v.Nonce = newSecret("")
	h := w.Header()
	csp := "default-src 'none'; style-src 'nonce-" + v.Nonce + "'; script-src 'nonce-" + v.Nonce + "'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
	if formTarget != "" {
		csp += " " + formTarget
	}
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Frame-Options", "DENY")
	// same-origin, not no-referrer: under no-referrer Chromium sends
	// "Origin: null" with the form's POST, and the Origin check in
	// serveConsent then refuses the person's own Connect click. Nothing
	// leaks cross-origin either way (the redirect to the client has none).
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	pageTmpl().Execute(w, v)
}

func (s *Server) errorPage(w http.ResponseWriter, status int, msg string) {
	renderPage(w, status, pageView{Title: "Connect an agent", Error: msg, Message: ""}, "")
}

// unavailable answers a page whose state could not be read or written
// (PostgreSQL restarting, a file locked too long): 503, try again, and
// nothing that names the database.
func (s *Server) unavailable(w http.ResponseWriter) {
	w.Header().Set("Retry-After", "5")
	s.errorPage(w, http.StatusServiceUnavailable, "osFoundry cannot reach its records right now. Wait a few seconds and reload this page.")
}

func (s *Server) messagePage(w http.ResponseWriter, status int, title, msg string) {
	renderPage(w, status, pageView{Title: title, Message: msg}, "")
}

// signInPage sends the browser to sign in and come back to continueAt,
// or, with the owner's sign-in links, says how to get one.
func (s *Server) signInPage(w http.ResponseWriter, r *http.Request, continueAt string) {
	if u := s.people.SignInURL(r, continueAt); u != "" {
		w.Header().Set("Cache-Control", "no-store")
		http.Redirect(w, r, u, http.StatusSeeOther)
		return
	}
	s.messagePage(w, http.StatusUnauthorized, "Connect an agent",
		"Sign in to approve this assistant. In the osFoundry app open Connected agents and choose Sign in to approve; "+
			"on a headless server run `osfoundry connections signin-link` and open the link it prints. This page then continues by itself.")
}

func (s *Server) consentPage(w http.ResponseWriter, r *http.Request, a *authRequest, user, errMsg string) {
	ctx := r.Context()
	c, err := s.svc.client(ctx, a.ClientID)
	if err != nil && !errors.Is(err, ErrNotFound) {
		s.unavailable(w)
		return
	}
	if err != nil {
		s.errorPage(w, http.StatusBadRequest, "Unknown assistant.")
		return
	}
	wss, err := s.svc.workspacesFor(ctx, user)
	if err != nil {
		s.unavailable(w)
		return
	}
	choices, err := s.svc.choices(ctx, user)
	if err != nil {
		s.unavailable(w)
		return
	}
	ru, _ := url.Parse(a.RedirectURI)
	v := &consentView{Client: c.Name, ReturnsTo: ru.Host, Action: authorizePath, Request: a.ID, CSRF: a.CSRF,
		Workspaces: wss, Choices: choices}
	if len(wss) > 0 {
		v.FirstWorkspace = wss[0].Name
	}
	for _, sc := range a.Scopes {
		v.Capabilities = append(v.Capabilities, capabilityText[sc])
	}
	renderPage(w, http.StatusOK, pageView{Title: "Connect an agent", Error: errMsg, Consent: v}, ru.Scheme+"://"+ru.Host)
}
