package connect

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// browserCookie marks the browser that started an authorization request
// before anyone was signed in there. The owner's sign-in link, opened in
// that same browser, continues exactly that request. SameSite=Lax: a
// cross-site <img> or fetch cannot plant it (browsers drop Lax cookies set
// by cross-site subresponses), only a top-level visit, which is what an
// assistant opening the browser does.
const browserCookie = "osf_browser"

// markBrowser returns the hash of this browser's mark, setting a new mark
// when it has none.
func (s *Server) markBrowser(w http.ResponseWriter, r *http.Request) string {
	v := ""
	if c, err := r.Cookie(browserCookie); err == nil && strings.HasPrefix(c.Value, "osfb_") && len(c.Value) <= 100 {
		v = c.Value
	}
	if v == "" {
		v = newSecret("osfb_")
	}
	http.SetCookie(w, &http.Cookie{Name: browserCookie, Value: v, Path: "/oauth", HttpOnly: true,
		Secure: strings.HasPrefix(s.base(r), "https://"), SameSite: http.SameSiteLaxMode, MaxAge: int(authRequestTTL.Seconds())})
	return hashSecret(v)
}

func browserMark(r *http.Request) string {
	c, err := r.Cookie(browserCookie)
	if err != nil || c.Value == "" {
		return ""
	}
	return hashSecret(c.Value)
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
	rows, err := s.db.QueryContext(ctx, `SELECT a.id, c.name, a.redirect_uri, a.browser_hash, a.created_at
		FROM connect_auth_requests a JOIN connect_clients c ON c.id = a.client_id
		WHERE a.session_hash = '' AND a.expires_at > ? ORDER BY a.created_at DESC, a.id LIMIT 20`, s.ms())
	if err != nil {
		return nil, fmt.Errorf("listing waiting requests: %w", err)
	}
	defer rows.Close()
	var out []pendingRequest
	for rows.Next() {
		var p pendingRequest
		var redirect, bh string
		var created int64
		if err := rows.Scan(&p.ID, &p.Client, &redirect, &bh, &created); err != nil {
			return nil, fmt.Errorf("listing waiting requests: %w", err)
		}
		if u, err := url.Parse(redirect); err == nil {
			p.ReturnsTo = u.Host
		}
		p.Client = cleanName(p.Client)
		p.Mine = browser != "" && bh == browser
		p.Age = ago(s.now().Sub(time.UnixMilli(created)))
		p.Href = authorizePath + "?request=" + url.QueryEscape(p.ID)
		out = append(out, p)
	}
	return out, rows.Err()
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
	reqs, err := s.svc.pendingRequests(ctx, browserMark(r))
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
