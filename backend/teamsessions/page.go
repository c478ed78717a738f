package teamsessions

import (
	"embed"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/osfoundry/desktop/backend/lazy"
	"github.com/osfoundry/desktop/backend/teamauth"
)

// The Needs you page (/needs-you) is made for a phone first: the person's
// shared sessions that wait for them across their desktops, then Running
// and recently Done. It is server-rendered HTML that works without script;
// one small script (needs-you.js) keeps it live from the event stream,
// answers prompts and sets up pushes. A service worker (sw.js) shows Web
// Push notifications and a manifest makes the page installable.

//go:embed web
var webFiles embed.FS

// RecentDone is how long a Done or Failed session stays under "Recently done".
const RecentDone = 24 * time.Hour

func (s *Service) registerPage(mount func(pattern string, h http.Handler)) {
	mount("GET /needs-you", http.HandlerFunc(s.page))
	mount("GET /needs-you/icon-192.png", pngIcon(192))
	mount("GET /needs-you/icon-512.png", pngIcon(512))
	for path, file := range map[string]string{
		"GET /needs-you/needs-you.js":         "web/needs-you.js",
		"GET /needs-you/sw.js":                "web/sw.js",
		"GET /needs-you/manifest.webmanifest": "web/manifest.webmanifest",
		"GET /needs-you/icon.svg":             "web/icon.svg",
	} {
		mount(path, asset(file))
	}
}

var assetTypes = map[string]string{
	".js": "text/javascript; charset=utf-8", ".webmanifest": "application/manifest+json", ".svg": "image/svg+xml",
}

func asset(file string) http.Handler {
	data, err := webFiles.ReadFile(file)
	if err != nil {
		panic(err) // embedded above
	}
	ctype := "application/octet-stream"
	for ext, t := range assetTypes {
		if len(file) > len(ext) && file[len(file)-len(ext):] == ext {
			ctype = t
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", ctype)
		h.Set("X-Content-Type-Options", "nosniff")
		// Short: a new server version reaches phones within minutes.
		h.Set("Cache-Control", "public, max-age=300")
		if file == "web/sw.js" {
			h.Set("Service-Worker-Allowed", "/needs-you")
			h.Set("Cache-Control", "no-cache")
		}
		_, _ = w.Write(data)
	})
}

// pageSession is a session as the page lists it.
type pageSession struct {
	Session
	Device, DeviceID string
	Answers          bool
	Waited           string // "3 min"
	Numbers          []int  // 1…Choices
}

type pageView struct {
	Person   teamauth.Person
	Error    string
	Devices  int
	Desktops []Device
	NeedsYou []pageSession
	Running  []pageSession
	Done     []pageSession
}

// page answers GET /needs-you: signed out, the sign-in that comes back here.
func (s *Service) page(w http.ResponseWriter, r *http.Request) {
	p, err := s.cfg.Auth.SessionPerson(r)
	if errors.Is(err, teamauth.ErrNoSession) {
		// a push's link opened from another site's page lands here first
		s.cfg.Auth.SendToSignIn(w, r, "/needs-you")
		return
	}
	v := pageView{Person: p}
	code := http.StatusOK
	if err == nil {
		var sh Shared
		if sh, err = s.Shared(r.Context(), p.ID, ""); err == nil {
			v = s.view(p, sh)
		}
	}
	if err != nil {
		s.cfg.Logger.Error("needs you page", "err", err)
		code, v.Error = http.StatusServiceUnavailable, "the team server cannot reach its database right now: try again in a moment"
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; connect-src 'self'; img-src 'self'; "+
		"style-src 'unsafe-inline'; manifest-src 'self'; worker-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	w.WriteHeader(code)
	if err := needsYouPage().Execute(w, v); err != nil {
		s.cfg.Logger.Warn("writing the needs you page", "err", err)
	}
}

func (s *Service) view(p teamauth.Person, sh Shared) pageView {
	v := pageView{Person: p, Devices: len(sh.Devices), Desktops: sh.Devices}
	now := s.cfg.Now()
	for _, d := range sh.Devices {
		for _, ss := range d.Sessions {
			ps := pageSession{Session: ss, Device: d.Name, DeviceID: d.ID, Answers: d.Answers, Waited: Waited(now, ss.Since)}
			for i := 1; i <= ss.Choices; i++ {
				ps.Numbers = append(ps.Numbers, i)
			}
			switch ss.State {
			case NeedsYou:
				v.NeedsYou = append(v.NeedsYou, ps)
			case "running":
				v.Running = append(v.Running, ps)
			case "done", "failed":
				if ss.Since == 0 || now.Sub(time.UnixMilli(ss.Since)) < RecentDone {
					v.Done = append(v.Done, ps)
				}
			}
		}
	}
	return v
}

// Waited says how long ago since (unix ms) was, the way the page does.
func Waited(now time.Time, since int64) string {
	if since <= 0 {
		return ""
	}
	d := now.Sub(time.UnixMilli(since))
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h", int(d/time.Hour))
	default:
		return fmt.Sprintf("%d days", int(d/(24*time.Hour)))
	}
}

var needsYouPage = lazy.HTML("needs-you", `<!doctype html>
<html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<title>Needs you · osFoundry</title>
<link rel="manifest" href="/needs-you/manifest.webmanifest"><link rel="icon" href="/needs-you/icon.svg">
<link rel="apple-touch-icon" href="/needs-you/icon-192.png"><meta name="apple-mobile-web-app-capable" content="yes">
<meta name="theme-color" content="#1d2733">
<style>
:root{color-scheme:light dark;font:16px/1.45 system-ui,sans-serif;--line:#8884;--accent:#2f6fd6}
body{max-width:44rem;margin:0 auto;padding:max(1rem,env(safe-area-inset-top)) 1rem 3rem}
header{display:flex;justify-content:space-between;align-items:baseline;gap:.5rem;flex-wrap:wrap}
h1{font-size:1.35rem;margin:.2rem 0}h2{font-size:1.05rem;margin:1.6rem 0 .5rem;display:flex;gap:.4rem;align-items:baseline}
.count{font-size:.85rem;opacity:.7}
ul{list-style:none;padding:0;margin:0}
.card{border:1px solid var(--line);border-radius:10px;padding:.7rem .8rem;margin:.55rem 0;scroll-margin-top:1rem}
.card.waits{border-color:#d9822b;border-width:2px}.card.target{outline:3px solid var(--accent)}
.title{font-weight:600;overflow-wrap:anywhere}.meta{font-size:.85rem;opacity:.75}
.q{margin:.45rem 0;padding:.4rem .6rem;border-left:3px solid #d9822b;background:#d9822b14;overflow-wrap:anywhere;font-family:ui-monospace,monospace;font-size:.9rem}
.acts{display:flex;flex-wrap:wrap;gap:.45rem;margin-top:.5rem}
button,input{font:inherit}button{min-height:44px;min-width:44px;padding:.35rem .9rem;border-radius:8px;border:1px solid var(--line);background:transparent;color:inherit}
button.yes{background:var(--accent);border-color:var(--accent);color:#fff}
.reply{display:flex;gap:.45rem;margin-top:.45rem}.reply input{flex:1;min-width:0;min-height:40px;padding:0 .5rem;border-radius:8px;border:1px solid var(--line)}
.note{font-size:.9rem;margin:.4rem 0 0}.ok{color:#2a8f4a}.bad{color:#c33}
.err{border:1px solid #c33;background:#c331;padding:.5rem .8rem;border-radius:6px}
.muted{opacity:.75}details{border-top:1px solid var(--line);margin-top:2rem;padding-top:.5rem}summary{cursor:pointer;min-height:44px;display:flex;align-items:center;font-weight:600}
#qr{display:block;width:180px;height:180px;image-rendering:pixelated;background:#fff;margin:.5rem 0}
code{overflow-wrap:anywhere}
#ntfy-form,#quiet-form{flex-wrap:wrap}.row-dev{display:flex;justify-content:space-between;align-items:center;gap:.5rem;margin:.3rem 0}#quiet-form input{flex:1 1 8rem;min-width:8rem}#ntfy-form input[name=server]{flex-basis:100%}
@media (min-width:50rem){body{padding-top:2rem}}
</style>
<header><h1>osFoundry</h1>{{if .Person.ID}}<span class="muted">{{or .Person.Name .Person.Email}}</span>{{end}}</header>
{{if .Error}}<p class="err" role="alert">{{.Error}}</p>{{end}}
<p id="result" class="note" role="status" aria-live="polite"></p>
<main id="lists" data-live="connecting">
<h2>Needs you <span class="count" id="n-needs">{{len .NeedsYou}}</span></h2>
<ul id="needs">{{range .NeedsYou}}<li class="card waits" id="s-{{.DeviceID}}-{{.ID}}" data-device="{{.DeviceID}}" data-session="{{.ID}}" data-since="{{.Since}}">
<div class="title">{{.Title}}</div><div class="meta">{{.Kind}} · on {{.Device}}{{if .Waited}} · waiting <span class="waited" data-since="{{.Since}}">{{.Waited}}</span>{{end}}</div>
{{if .Line}}<div class="q">{{.Line}}</div>{{end}}
{{if eq .Kind "terminal"}}{{if .Answers}}<div class="acts"><button class="yes" data-answer="approve">Approve</button><button data-answer="decline">Decline</button>{{range .Numbers}}<button data-answer="choice" data-choice="{{.}}" aria-label="Choice {{.}}">{{.}}</button>{{end}}</div>
<form class="reply"><input name="text" maxlength="200" aria-label="Reply" placeholder="Reply…" autocomplete="off"><button>Send</button></form>
{{else}}<p class="note muted">Answers from this page are off on {{.Device}}: turn on “Answer from the team server's page” in its Settings → Team.</p>{{end}}
{{else if .Asks}}{{if .Answers}}{{if eq .Asks "approval"}}<div class="acts"><button class="yes" data-answer="approve">Approve</button><button data-answer="decline">Decline</button></div>
{{else}}<form class="reply"><input name="text" maxlength="200" aria-label="Reply" placeholder="Reply…" autocomplete="off"><button>Send</button></form>{{end}}
{{else}}<p class="note muted">Answers from this page are off on {{.Device}}: turn on “Answer from the team server's page” in its Settings → Team.</p>{{end}}{{end}}
<p class="note" role="status"></p></li>{{else}}<li class="muted" id="none">Nothing waits for you{{if not $.Devices}} — no desktop of yours shares its sessions: turn on “Share this computer's sessions” in Settings → Team{{end}}.</li>{{end}}</ul>
<h2>Running <span class="count" id="n-running">{{len .Running}}</span></h2>
<ul id="running">{{range .Running}}<li class="card"><div class="title">{{.Title}}</div><div class="meta">{{.Kind}} · on {{.Device}}{{if .Waited}} · for <span class="waited" data-since="{{.Since}}">{{.Waited}}</span>{{end}}</div></li>{{end}}</ul>
<h2>Recently done <span class="count" id="n-done">{{len .Done}}</span></h2>
<ul id="done">{{range .Done}}<li class="card"><div class="title">{{.Title}}</div><div class="meta">{{.Kind}} · {{.State}} · on {{.Device}}{{if .Waited}} · <span class="waited" data-since="{{.Since}}">{{.Waited}}</span> ago{{end}}</div></li>{{end}}</ul>
</main>
{{if .Person.ID}}<details id="push"><summary>Notifications</summary>
<p>Get a push when a session starts needing you (once per session every 30 s).</p>
<h3>ntfy</h3>
<div id="ntfy"><p class="muted">Loading…</p></div>
<form id="ntfy-form" class="reply"><input name="server" type="url" required aria-label="ntfy server" placeholder="https://ntfy.sh" value="https://ntfy.sh"><input name="token" aria-label="Access token (optional)" placeholder="token (optional)" autocomplete="off"><button>New topic</button></form>
<h3>Quiet hours</h3>
<p class="muted" id="quiet-now">No quiet hours: pushes come at any time.</p>
<form id="quiet-form" class="reply"><input name="from" type="time" required aria-label="Quiet from" value="22:00"><input name="to" type="time" required aria-label="Quiet until" value="07:00"><button>Save</button><button type="button" id="quiet-off">Off</button></form>
<h3>This browser</h3>
<div class="acts"><button id="webpush">Notify this browser</button><button id="test">Test push</button></div>
<p class="note" id="push-note" role="status"></p>
</details>
<details id="browsers"><summary>Browsers and phones</summary>
<p class="muted">Each browser you signed in with sees what waits for you and may answer it; pushes reach the ones you turned on. Sign one out (a lost phone) and it can neither see, answer nor get pushes, at once.</p>
<ul id="browser-list"><li class="muted">Loading…</li></ul>
</details>
<details id="desktops"><summary>Your desktops</summary>
<ul id="desktop-list">{{range .Desktops}}<li class="row-dev"><span>{{.Name}} · {{if .Answers}}takes answers from this page{{else}}answers from this page are off{{end}}</span> <button data-revoke="{{.ID}}" data-name="{{.Name}}">Sign out</button></li>{{else}}<li class="muted">No desktop of yours shares its sessions now.</li>{{end}}</ul>
<p class="note muted">Each desktop decides in its Settings → Team: “Share this computer's sessions”, and “Answer from the team server's page” (off until you turn it on). Sign a desktop out here (a lost laptop) and it can neither share nor take answers until someone signs it in again.</p>
</details>{{end}}
<script src="/needs-you/needs-you.js" defer></script>
</html>
`)
