package teamauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/jackc/pgx/v5"
	"golang.org/x/oauth2"
)

const (
	loginPath     = "/auth/login"
	callbackPath  = "/auth/callback"
	logoutPath    = "/auth/logout"
	bootstrapPath = "/auth/bootstrap"
	mePath        = "/auth/me"
)

// provider discovers the company's provider once per process; a failure is
// not kept, so the next sign-in tries again.
func (s *Service) provider(ctx context.Context) (*oidc.Provider, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.oidcP != nil {
		return s.oidcP, nil
	}
	p, err := oidc.NewProvider(oidc.ClientContext(ctx, s.cfg.HTTPClient), s.cfg.Issuer)
	if err != nil {
		return nil, fmt.Errorf("the sign-in provider at %s cannot be reached or is misconfigured (%v): check the issuer URL and that this server can reach it", s.cfg.Issuer, err)
	}
	s.oidcP = p
	return p, nil
}

func (s *Service) oauth(p *oidc.Provider) *oauth2.Config {
	return &oauth2.Config{
		ClientID:     s.cfg.ClientID,
		ClientSecret: s.cfg.ClientSecret,
		Endpoint:     p.Endpoint(),
		RedirectURL:  s.public.String() + callbackPath,
		Scopes:       append([]string{oidc.ScopeOpenID}, s.cfg.Scopes...),
	}
}

// safeReturn keeps only a path on this server, so a sign-in link can never
// send a browser to another site afterwards.
func safeReturn(v string) string {
	if v == "" || len(v) > 2000 || !strings.HasPrefix(v, "/") || strings.HasPrefix(v, "//") || strings.ContainsAny(v, "\\\r\n\t") {
		return "/"
	}
	u, err := url.Parse(v)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil {
		return "/"
	}
	return v
}

// handleLogin starts a sign-in: the state (hashed), nonce and PKCE
// verifier go to PostgreSQL, so whichever replica receives the callback can
// finish it; the browser gets a cookie that binds the state to it.
func (s *Service) handleLogin(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	p, err := s.provider(ctx)
	if err != nil {
		s.log.Warn("sign-in provider", "err", err)
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	browser := cookieValue(r, s.cookies.login, "osfl_")
	if browser == "" {
		browser = newSecret("osfl_")
	}
	state, nonce, verifier := newSecret("osfst_"), newSecret(""), oauth2.GenerateVerifier()
	// sign-ins nobody finished go as new ones start (an index range scan)
	if _, err := s.db.Exec(ctx, `DELETE FROM teamauth_logins WHERE expires_at <= $1`, s.now()); err != nil {
		s.serverError(w, fmt.Errorf("dropping abandoned sign-ins: %w", err))
		return
	}
	if _, err := s.db.Exec(ctx, `INSERT INTO teamauth_logins (state_hash, browser_hash, nonce, verifier, return_to, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6)`, hashSecret(state), hashSecret(browser), nonce, verifier,
		safeReturn(r.URL.Query().Get("return_to")), s.now().Add(s.cfg.LoginTTL)); err != nil {
		s.serverError(w, fmt.Errorf("storing the sign-in: %w", err))
		return
	}
	s.setCookie(w, s.cookies.login, browser, s.cfg.LoginTTL)
	http.Redirect(w, r, s.oauth(p).AuthCodeURL(state, oidc.Nonce(nonce), oauth2.S256ChallengeOption(verifier)), http.StatusFound)
}

// pendingLogin is a sign-in row, taken (deleted) by the callback: a state
// is good for one callback only.
type pendingLogin struct {
	browserHash, nonce, verifier, returnTo string
	expires                                time.Time
}

func (s *Service) takeLogin(ctx context.Context, state string) (pendingLogin, error) {
	var l pendingLogin
	err := s.db.QueryRow(ctx, `DELETE FROM teamauth_logins WHERE state_hash = $1
		RETURNING browser_hash, nonce, verifier, return_to, expires_at`, hashSecret(state)).
		Scan(&l.browserHash, &l.nonce, &l.verifier, &l.returnTo, &l.expires)
	return l, err
}

// handleCallback finishes a sign-in on any replica: it checks the state
// against the browser that started it, redeems the code with the PKCE
// verifier, verifies the ID token (signature, issuer, audience, expiry)
// and its nonce, then starts a session.
func (s *Service) handleCallback(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	q := r.URL.Query()
	state := q.Get("state")
	if state == "" || len(state) > 200 {
		http.Error(w, "This sign-in has no state: start again at "+s.public.String()+loginPath, http.StatusBadRequest)
		return
	}
	l, err := s.takeLogin(ctx, state)
	if errors.Is(err, pgx.ErrNoRows) {
		http.Error(w, "This sign-in is unknown or was already finished: start again at "+s.public.String()+loginPath, http.StatusBadRequest)
		return
	}
	if err != nil {
		s.serverError(w, fmt.Errorf("reading the sign-in: %w", err))
		return
	}
	if !sameSecret(hashSecret(cookieValue(r, s.cookies.login, "osfl_")), l.browserHash) {
		http.Error(w, "This sign-in was started in another browser: start again at "+s.public.String()+loginPath+" in this one", http.StatusBadRequest)
		return
	}
	if !s.now().Before(l.expires) {
		http.Error(w, "This sign-in took too long: start again at "+s.public.String()+loginPath, http.StatusBadRequest)
		return
	}
	if e := q.Get("error"); e != "" {
		http.Error(w, fmt.Sprintf("The sign-in provider refused the sign-in (%s: %s): ask your administrator, or start again at %s",
			e, q.Get("error_description"), s.public.String()+loginPath), http.StatusForbidden)
		return
	}
	person, err := s.verifyCallback(ctx, q.Get("code"), l)
	if err != nil {
		s.log.Info("sign-in refused", "err", err)
		http.Error(w, "The sign-in could not be verified ("+err.Error()+"): start again at "+s.public.String()+loginPath, http.StatusBadRequest)
		return
	}
	id, err := s.rememberPerson(ctx, person)
	if err != nil {
		s.serverError(w, err)
		return
	}
	if err := s.startSession(ctx, w, r, id); err != nil {
		s.serverError(w, err)
		return
	}
	s.setCookie(w, s.cookies.login, "", -1)
	s.log.Info("signed in", "person", id, "issuer", person.Issuer)
	// The provider's redirect is another site's navigation: the Strict
	// session cookie would be left out of a redirect from here, so the
	// browser goes on from a page of this site (see landing.go).
	s.writeLanding(w, l.returnTo)
}

// idClaims are the ID token claims read beyond go-oidc's checks.
type idClaims struct {
	Email         string `json:"email"`
	EmailVerified any    `json:"email_verified"` // some providers send "true"
	Name          string `json:"name"`
	Preferred     string `json:"preferred_username"`
}

func (c idClaims) verified() bool {
	switch v := c.EmailVerified.(type) {
	case bool:
		return v
	case string:
		return v == "true"
	}
	return false
}

func (s *Service) verifyCallback(ctx context.Context, code string, l pendingLogin) (Person, error) {
	if code == "" {
		return Person{}, errors.New("no authorization code")
	}
	p, err := s.provider(ctx)
	if err != nil {
		return Person{}, err
	}
	octx := oidc.ClientContext(ctx, s.cfg.HTTPClient)
	tok, err := s.oauth(p).Exchange(octx, code, oauth2.VerifierOption(l.verifier))
	if err != nil {
		return Person{}, fmt.Errorf("redeeming the code: %w", err)
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return Person{}, errors.New("the provider sent no ID token")
	}
	idt, err := p.VerifierContext(octx, &oidc.Config{ClientID: s.cfg.ClientID, Now: s.now}).Verify(octx, raw)
	if err != nil {
		return Person{}, fmt.Errorf("checking the ID token: %w", err)
	}
	if !sameSecret(idt.Nonce, l.nonce) {
		return Person{}, errors.New("the ID token was issued for another sign-in (nonce mismatch)")
	}
	if idt.AccessTokenHash != "" {
		if err := idt.VerifyAccessToken(tok.AccessToken); err != nil {
			return Person{}, fmt.Errorf("checking the access token hash: %w", err)
		}
	}
	var c idClaims
	if err := idt.Claims(&c); err != nil {
		return Person{}, fmt.Errorf("reading the ID token: %w", err)
	}
	person := Person{Issuer: idt.Issuer, Subject: idt.Subject, Email: c.Email, EmailVerified: c.verified(), Name: c.Name}
	if person.Email == "" && p.UserInfoEndpoint() != "" {
		// many providers put the email only in userinfo unless asked otherwise
		ui, err := p.UserInfo(octx, oauth2.StaticTokenSource(tok))
		if err != nil {
			return Person{}, fmt.Errorf("reading userinfo: %w", err)
		}
		if ui.Subject != idt.Subject {
			return Person{}, errors.New("userinfo names another person than the ID token")
		}
		var uc idClaims
		_ = ui.Claims(&uc)
		person.Email, person.EmailVerified = ui.Email, ui.EmailVerified
		if person.Name == "" {
			person.Name = uc.Name
		}
	}
	if person.Name == "" {
		person.Name = c.Preferred
	}
	person.Email = strings.ToLower(strings.TrimSpace(person.Email))
	return person, nil
}

// rememberPerson upserts the person and turns invitations for their
// verified email into memberships.
func (s *Service) rememberPerson(ctx context.Context, p Person) (string, error) {
	tx, err := s.db.Begin(ctx)
	if err != nil {
		return "", fmt.Errorf("remembering who signed in: %w", err)
	}
	defer tx.Rollback(ctx)
	now := s.now()
	var id string
	err = tx.QueryRow(ctx, `INSERT INTO teamauth_people (id, issuer, subject, email, email_verified, name, created_at, signed_in_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
		ON CONFLICT (issuer, subject) DO UPDATE SET email = EXCLUDED.email, email_verified = EXCLUDED.email_verified,
			name = EXCLUDED.name, signed_in_at = EXCLUDED.signed_in_at
		RETURNING id`, newID("p_"), p.Issuer, p.Subject, p.Email, p.EmailVerified || s.cfg.TrustProviderEmail, p.Name, now).Scan(&id)
	if err != nil {
		return "", fmt.Errorf("remembering who signed in: %w", err)
	}
	if p.Email != "" && (p.EmailVerified || s.cfg.TrustProviderEmail) {
		if err := claimInvites(ctx, tx, id, p.Email); err != nil {
			return "", err
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return "", fmt.Errorf("remembering who signed in: %w", err)
	}
	return id, nil
}

// claimInvites makes person a member wherever their email was invited; an
// invitation to a workspace they already belong to is dropped.
func claimInvites(ctx context.Context, tx pgx.Tx, personID, email string) error {
	if _, err := tx.Exec(ctx, `DELETE FROM teamauth_members i WHERE i.person_id IS NULL AND i.email = $2
		AND EXISTS (SELECT 1 FROM teamauth_members m WHERE m.workspace_id = i.workspace_id AND m.person_id = $1)`, personID, email); err != nil {
		return fmt.Errorf("claiming invitations: %w", err)
	}
	if _, err := tx.Exec(ctx, `UPDATE teamauth_members SET person_id = $1 WHERE person_id IS NULL AND email = $2`, personID, email); err != nil {
		return fmt.Errorf("claiming invitations: %w", err)
	}
	return nil
}

func (s *Service) serverError(w http.ResponseWriter, err error) {
	s.log.Error("team sign-in", "err", err)
	http.Error(w, "The team server cannot reach its database right now: try again in a moment", http.StatusServiceUnavailable)
}
