package connect

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/tools"
)

// authRequest is a validated authorization request waiting for consent.
type authRequest struct {
	ID, ClientID, RedirectURI, State, Challenge, Resource, SessionHash, CSRF string
	// BrowserHash names the browser that started the request while nobody
	// was signed in there (hash of its osf_browser cookie).
	BrowserHash string
	Scopes      []string
}

func (s *Service) saveAuthRequest(ctx context.Context, a *authRequest) error {
	a.ID = newID("authz")
	a.CSRF = newSecret("")
	now := time.UnixMilli(s.ms())
	return s.st.InsertAuthRequest(ctx, AuthRequestRow{ID: a.ID, ClientID: a.ClientID, RedirectURI: a.RedirectURI, State: a.State,
		Challenge: a.Challenge, Scopes: strings.Join(a.Scopes, " "), Resource: a.Resource, SessionHash: a.SessionHash, CSRF: a.CSRF,
		BrowserHash: a.BrowserHash, CreatedAt: now, ExpiresAt: now.Add(authRequestTTL)})
}

// errRequestGone: the request expired, was used, or never was.
var errRequestGone = errors.New("this sign-in request expired or was already used; start connecting again from your assistant")

func (s *Service) loadAuthRequest(ctx context.Context, id string) (*authRequest, error) {
	r, err := s.st.AuthRequest(ctx, id)
	if errors.Is(err, ErrNotFound) || err == nil && s.expired(r.ExpiresAt) {
		return nil, errRequestGone
	}
	if err != nil {
		return nil, fmt.Errorf("reading authorization request: %w", err)
	}
	return &authRequest{ID: r.ID, ClientID: r.ClientID, RedirectURI: r.RedirectURI, State: r.State, Challenge: r.Challenge,
		Resource: r.Resource, SessionHash: r.SessionHash, CSRF: r.CSRF, BrowserHash: r.BrowserHash, Scopes: splitScopes(r.Scopes)}, nil
}

// bindAuthRequest gives a request waiting for sign-in to the session that
// now continues it, with a fresh CSRF token.
func (s *Service) bindAuthRequest(ctx context.Context, a *authRequest, sessionHash string) error {
	a.SessionHash, a.CSRF = sessionHash, newSecret("")
	return s.st.BindAuthRequest(ctx, a.ID, sessionHash, a.CSRF)
}

// serveAuthorize validates the request and shows the consent page. An
// unknown client or redirect URI gets an error page and never a redirect
// (that would be an open redirector); later errors go back to the client.
func (s *Server) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	// The authorization endpoint is visited, never embedded: a browser that
	// says this GET is an image, script, frame or fetch is a page trying to
	// start a sign-in in the owner's name.
	if d := r.Header.Get("Sec-Fetch-Dest"); d != "" && d != "document" {
		s.errorPage(w, http.StatusBadRequest, "Open this sign-in page directly; it cannot be embedded in another page.")
		return
	}
	if p := oversizedParam(r); p != "" {
		s.errorPage(w, http.StatusBadRequest, "This sign-in request is too large ("+p+"). Nothing was stored or sent back; start connecting again from your assistant.")
		return
	}
	ok, wait, err := s.authLim.allow(ctx, s.clientAddr(r))
	if err != nil {
		w.Header().Set("Retry-After", "5")
		s.errorPage(w, http.StatusServiceUnavailable, "The server cannot count sign-in requests right now. Wait a moment and start connecting again.")
		return
	}
	if !ok {
		w.Header().Set("Retry-After", fmt.Sprint(int(wait.Seconds())+1))
		s.errorPage(w, http.StatusTooManyRequests, "Too many sign-in requests from this address. Wait a minute and start connecting again.")
		return
	}
	q := r.URL.Query()
	user, sess := s.approver(r)
	if id := q.Get("request"); id != "" { // continuing after sign-in
		a, err := s.svc.loadAuthRequest(ctx, id)
		if err != nil && !errors.Is(err, errRequestGone) {
			s.unavailable(w)
			return
		}
		if err != nil || a.SessionHash != "" && a.SessionHash != sess {
			s.errorPage(w, http.StatusBadRequest, "This sign-in request expired or was already used. Start connecting again from your assistant.")
			return
		}
		if user == "" {
			s.signInPage(w, r, continuePath(a.ID))
			return
		}
		if err := s.svc.bindAuthRequest(ctx, a, sess); err != nil {
			s.unavailable(w)
			return
		}
		s.consentPage(w, r, a, user, "")
		return
	}
	c, err := s.svc.client(ctx, q.Get("client_id"))
	if err != nil && !errors.Is(err, ErrNotFound) {
		s.unavailable(w)
		return
	}
	if err != nil {
		s.errorPage(w, http.StatusBadRequest, "Unknown assistant (client_id). Remove the server from your assistant and add it again so it registers.")
		return
	}
	redirect := q.Get("redirect_uri")
	if redirect == "" && len(c.RedirectURIs) == 1 {
		redirect = c.RedirectURIs[0]
	}
	if !redirectAllowed(c.RedirectURIs, redirect) {
		s.errorPage(w, http.StatusBadRequest, "The return address (redirect_uri) is not one this assistant registered. Nothing was sent back.")
		return
	}
	back := func(code, desc string) {
		redirectWith(w, r, redirect, url.Values{"error": {code}, "error_description": {desc}, "state": {q.Get("state")}, "iss": {s.base(r)}})
	}
	if q.Get("response_type") != "code" {
		back("unsupported_response_type", "response_type must be code")
		return
	}
	if q.Get("code_challenge") == "" || q.Get("code_challenge_method") != "S256" {
		back("invalid_request", "PKCE is required with code_challenge_method S256")
		return
	}
	if len(q.Get("code_challenge")) != 43 {
		back("invalid_request", "code_challenge must be a base64url SHA-256 (43 characters)")
		return
	}
	resource := q.Get("resource")
	if resource == "" {
		resource = s.base(r) + ResourcePath
	}
	if resource != s.base(r)+ResourcePath {
		back("invalid_target", "resource must be "+s.base(r)+ResourcePath)
		return
	}
	scopes := splitScopes(q.Get("scope"))
	if len(scopes) == 0 {
		scopes = []string{tools.ScopeRead, tools.ScopeWrite}
	}
	for _, sc := range scopes {
		if !slices.Contains(s.scopesSupported(), sc) {
			back("invalid_scope", "unknown scope "+sc)
			return
		}
	}
	a := &authRequest{ClientID: c.ID, RedirectURI: redirect, State: q.Get("state"), Challenge: q.Get("code_challenge"),
		Resource: resource, Scopes: scopes, SessionHash: sess}
	if user == "" {
		a.BrowserHash = s.markBrowser(w, r)
	}
	if err := s.svc.saveAuthRequest(ctx, a); err != nil {
		s.unavailable(w)
		return
	}
	if user == "" {
		s.signInPage(w, r, continuePath(a.ID))
		return
	}
	s.consentPage(w, r, a, user, "")
}

func redirectWith(w http.ResponseWriter, r *http.Request, target string, v url.Values) {
	u, _ := url.Parse(target)
	q := u.Query()
	for k, vs := range v {
		if len(vs) > 0 && vs[0] != "" {
			q.Set(k, vs[0])
		}
	}
	u.RawQuery = q.Encode()
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, u.String(), http.StatusSeeOther)
}

// serveConsent handles the Connect button: Origin and CSRF checked, the
// session must be the one the page was shown to, the box must be ticked.
func (s *Server) serveConsent(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	if o := r.Header.Get("Origin"); o != "" && !strings.EqualFold(o, s.base(r)) || r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		s.errorPage(w, http.StatusForbidden, "This form can only be sent from the osFoundry consent page.")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
	if err := r.ParseForm(); err != nil {
		s.errorPage(w, http.StatusBadRequest, "Unreadable form.")
		return
	}
	f := r.PostForm
	user, sess := s.approver(r)
	a, err := s.svc.loadAuthRequest(ctx, f.Get("request"))
	if errors.Is(err, errRequestGone) {
		s.errorPage(w, http.StatusBadRequest, err.Error())
		return
	}
	if err != nil {
		s.unavailable(w)
		return
	}
	if user == "" || sess != a.SessionHash || !constantEqual(f.Get("csrf"), a.CSRF) {
		s.errorPage(w, http.StatusForbidden, "This approval did not come from the page osFoundry showed you. Reload the sign-in page and try again.")
		return
	}
	if f.Get("action") == "cancel" {
		s.svc.deleteAuthRequest(ctx, a.ID)
		redirectWith(w, r, a.RedirectURI, url.Values{"error": {"access_denied"}, "error_description": {"the owner did not approve"}, "state": {a.State}, "iss": {s.base(r)}})
		return
	}
	if f.Get("approve") != "yes" {
		s.consentPage(w, r, a, user, "Tick the box to approve, or close this page.")
		return
	}
	conn, err := s.svc.approve(ctx, a, user, f.Get("workspace"), f.Get("connection"))
	if err != nil {
		s.consentPage(w, r, a, user, err.Error())
		return
	}
	s.svc.deleteAuthRequest(ctx, a.ID)
	code, err := s.svc.issueCode(ctx, codeGrant{ClientID: a.ClientID, ConnectionID: conn, UserID: user, RedirectURI: a.RedirectURI,
		Challenge: a.Challenge, Resource: a.Resource, Scopes: a.Scopes})
	if err != nil {
		s.unavailable(w)
		return
	}
	redirectWith(w, r, a.RedirectURI, url.Values{"code": {code}, "state": {a.State}, "iss": {s.base(r)}})
}

// deleteAuthRequest is best effort: a request left behind expires with
// authRequestTTL, and its consent cannot be sent twice (the code is
// issued once, its CSRF token was the page's).
func (s *Service) deleteAuthRequest(ctx context.Context, id string) {
	_ = s.st.DeleteAuthRequest(ctx, id)
}
