package teamauth

import (
	"net/http"
	"net/url"

	"github.com/osfoundry/desktop/backend/lazy"
)

// The session cookie is SameSite=Strict, so a browser leaves it out of
// every request in a navigation another site started, redirects included:
// the provider's redirect back to the callback, and a link to the Needs
// you page followed from a chat or a mail. The landing page is how such a
// navigation becomes the server's own: a page of this site that moves on
// at once (a meta refresh, no script), and the browser starts that next
// navigation from this site, so the Strict cookie goes with it.

var landingPage = lazy.HTML("landing", `<!doctype html>
<html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="0;url={{.}}"><meta name="referrer" content="no-referrer">
<title>osFoundry</title>
<p style="font:16px system-ui,sans-serif;margin:2rem">Signing you in… <a href="{{.}}">Continue</a></p>
</html>
`)

// writeLanding answers with the landing page that goes on to to (a path on
// this server).
func (s *Service) writeLanding(w http.ResponseWriter, to string) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'")
	w.WriteHeader(http.StatusOK)
	_ = landingPage().Execute(w, safeReturn(to))
}

// CrossSite says whether r is a navigation another site started (the
// browser's Sec-Fetch-Site), whose requests never carry the session cookie.
func CrossSite(r *http.Request) bool {
	return r.Header.Get("Sec-Fetch-Site") == "cross-site"
}

// LandFromOtherSite answers a page request without a session that another
// site's navigation brought (a link in a chat or a mail) with the landing
// page, which asks for to (a path on this server) again from this site,
// with the Strict session cookie the browser may well have; it says
// whether it answered. A request of this site's own is left to the caller.
func (s *Service) LandFromOtherSite(w http.ResponseWriter, r *http.Request, to string) bool {
	if !CrossSite(r) || r.Method != http.MethodGet {
		return false
	}
	s.writeLanding(w, to)
	return true
}

// SendToSignIn answers a page request that carries no session: one
// another site's navigation brought lands first (LandFromOtherSite); any
// other goes to the sign-in that comes back to returnTo (a path on this
// server).
func (s *Service) SendToSignIn(w http.ResponseWriter, r *http.Request, returnTo string) {
	if s.LandFromOtherSite(w, r, returnTo) {
		return
	}
	http.Redirect(w, r, s.LoginURL(returnTo), http.StatusSeeOther)
}

// SignInURLFor is where to send r's browser, which carries no session, to
// come back to returnTo signed in: for another site's navigation, the
// landing route (the browser may be signed in already and only left the
// Strict cookie out), else the sign-in.
func (s *Service) SignInURLFor(r *http.Request, returnTo string) string {
	if CrossSite(r) && r.Method == http.MethodGet {
		return s.public.String() + hopPath + "?to=" + url.QueryEscape(safeReturn(returnTo))
	}
	return s.LoginURL(returnTo)
}

// hopPath is the landing page as a route: it goes on to ?to= from this site.
const hopPath = "/auth/hop"

func (s *Service) handleHop(w http.ResponseWriter, r *http.Request) {
	s.writeLanding(w, r.URL.Query().Get("to"))
}
