package connect

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// The browser mark says which browser started an authorization request
// before anyone was signed in there, so the owner's sign-in link, opened
// in that browser, continues exactly that request.
//
// Anyone's web page can make the owner's browser visit the authorize
// address (a top-level navigation), so the mark must be something such a
// visit cannot plant. It is a SameSite=Strict cookie, which a browser
// never sends with a navigation another site started, and a request is
// marked only when
//   - it carries that cookie and its Sec-Fetch-Site is none, same-origin or
//     absent (a browser without Fetch Metadata still withholds Strict
//     cookies cross-site; same-site is refused: on a loopback address
//     another port's page is same-site), or
//   - on a loopback-only server, its Sec-Fetch-Site is none: the browser
//     says the person or a program on this machine opened the address (an
//     assistant opening the system browser), never a web page. The cookie
//     is then set if missing.
//
// The cookie is also set by the sign-in link, whose token only the app
// knows. On https it is a __Host- cookie, which no sibling subdomain can
// set in the owner's browser.
const browserCookie = "osf_browser"

func (s *Server) browserCookieName(r *http.Request) string {
	if strings.HasPrefix(s.base(r), "https://") {
		return "__Host-" + browserCookie
	}
	return browserCookie
}

// browserValue is the request's browser mark cookie, or "".
func (s *Server) browserValue(r *http.Request) string {
	c, err := r.Cookie(s.browserCookieName(r))
	if err != nil || !strings.HasPrefix(c.Value, "osfb_") || len(c.Value) > 100 {
		return ""
	}
	return c.Value
}

// setBrowserMark (re)sets the browser mark cookie to v, or a new one.
func (s *Server) setBrowserMark(w http.ResponseWriter, r *http.Request, v string) string {
	if v == "" {
		v = newSecret("osfb_")
	}
	c := &http.Cookie{Name: s.browserCookieName(r), Value: v, Path: "/oauth", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, MaxAge: int(sessionTTL.Seconds())}
	if strings.HasPrefix(s.base(r), "https://") {
		c.Secure, c.Path = true, "/" // what __Host- requires
	}
	http.SetCookie(w, c)
	return v
}

// markBrowser returns the hash of this browser's mark when the request may
// be marked as started in it (see browserCookie), else "".
func (s *Server) markBrowser(w http.ResponseWriter, r *http.Request) string {
	site := r.Header.Get("Sec-Fetch-Site")
	v := s.browserValue(r)
	switch {
	case v != "" && (site == "" || site == "none" || site == "same-origin"):
		return hashSecret(v)
	case site == "none" && s.public == nil:
		return hashSecret(s.setBrowserMark(w, r, ""))
	}
	return ""
}

// browserMark is the hash of the request's mark, for the sign-in page.
func (s *Server) browserMark(r *http.Request) string {
	if v := s.browserValue(r); v != "" {
		return hashSecret(v)
	}
	return ""
}

// pendingRequest is an authorization request nobody has signed in for yet.
type pendingRequest struct {
	ID, Client, ReturnsTo, Age string
	Href                       string
	Mine                       bool
}

// pendingRequests lists the requests waiting for a sign-in, newest first;
// Mine marks those started in the browser whose mark hashes to browser.
func (s *Service) pendingRequests(ctx context.Context, browser string) ([]pendingRequest, error) {
	rows, err := s.st.WaitingRequests(ctx, time.UnixMilli(s.ms()), 20)
	if err != nil {
		return nil, err
	}
	var out []pendingRequest
	for _, w := range rows {
		p := pendingRequest{ID: w.ID, Client: cleanName(w.ClientName)}
		if u, err := url.Parse(w.RedirectURI); err == nil {
			p.ReturnsTo = u.Host
		}
		p.Mine = browser != "" && w.BrowserHash == browser
		p.Age = ago(s.now().Sub(w.CreatedAt))
		p.Href = authorizePath + "?request=" + url.QueryEscape(p.ID)
		out = append(out, p)
	}
	return out, nil
}

func ago(d time.Duration) string {
	if d < time.Minute {
		return "just now"
	}
	return fmt.Sprintf("%d min ago", int(d/time.Minute))
}

// serveSignIn redeems a one-time sign-in link and sets the session cookie.
// It continues a waiting consent only when exactly one was started in this
// browser; otherwise it lists the waiting requests to pick from, none
// chosen, since anyone can start one with a plain GET.
func (s *Server) serveSignIn(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	sess, err := s.svc.redeemSignIn(ctx, r.URL.Query().Get("token"))
	if err != nil {
		s.errorPage(w, http.StatusForbidden, err.Error())
		return
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: sess, Path: "/oauth", HttpOnly: true,
		Secure: strings.HasPrefix(s.base(r), "https://"), SameSite: http.SameSiteLaxMode, MaxAge: int(sessionTTL.Seconds())})
	// The link carries a token only the app knows: the browser opening it
	// is the owner's, so it gets a mark (keeping the one it has, which
	// requests it started carry).
	mark := s.browserMark(r)
	s.setBrowserMark(w, r, s.browserValue(r))
	reqs, err := s.svc.pendingRequests(ctx, mark)
	if err != nil {
		s.errorPage(w, http.StatusInternalServerError, "Signed in, but the waiting requests could not be read. Go back to your assistant and connect again.")
		return
	}
	var mine []pendingRequest
	for _, p := range reqs {
		if p.Mine {
			mine = append(mine, p)
		}
	}
	if len(mine) == 1 {
		w.Header().Set("Cache-Control", "no-store")
		http.Redirect(w, r, mine[0].Href, http.StatusSeeOther)
		return
	}
	if len(reqs) == 0 {
		s.messagePage(w, http.StatusOK, "Signed in", "You are signed in to osFoundry. Go back to your assistant and connect again; the consent page will open here.")
		return
	}
	renderPage(w, http.StatusOK, pageView{Title: "Signed in", Pending: reqs,
		Message: "You are signed in. These assistants are waiting for approval. Open the one you started yourself; " +
			"ignore any you do not recognise: they expire by themselves within " + fmt.Sprint(int(authRequestTTL/time.Minute)) + " minutes."}, "")
}
