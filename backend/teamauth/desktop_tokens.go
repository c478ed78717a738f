package teamauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// TokenResponse is what /auth/desktop/token answers (RFC 6749 §5.1).
type TokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
}

// tokenError is an OAuth error answer (RFC 6749 §5.2).
type tokenError struct {
	Code        string `json:"error"`
	Description string `json:"error_description"`
}

func (e *tokenError) Error() string { return e.Description }

func invalidGrant(why string) error { return &tokenError{"invalid_grant", why} }

// DesktopMe is what /auth/desktop/me answers.
type DesktopMe struct {
	Person     Person      `json:"person"`
	Workspaces []Workspace `json:"workspaces"`
	Device     string      `json:"device"`
	DesktopAPI int         `json:"desktop_api"`
}

func (s *Service) accessTTL() time.Duration {
	if s.cfg.DesktopAccessTTL > 0 {
		return s.cfg.DesktopAccessTTL
	}
	return DefaultAccessTTL
}

func (s *Service) refreshTTL() time.Duration {
	if s.cfg.DesktopRefreshTTL > 0 {
		return s.cfg.DesktopRefreshTTL
	}
	return DefaultRefreshTTL
}

// handleDesktopToken redeems a code or rotates a refresh token.
func (s *Service) handleDesktopToken(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 8<<10)
	if err := r.ParseForm(); err != nil {
		writeJSON(w, http.StatusBadRequest, tokenError{"invalid_request", "send the request as a form (application/x-www-form-urlencoded)"})
		return
	}
	f := r.PostForm
	var resp *TokenResponse
	var err error
	switch f.Get("grant_type") {
	case "authorization_code":
		resp, err = s.redeemDesktopCode(r.Context(), f.Get("code"), f.Get("code_verifier"), f.Get("redirect_uri"))
	case "refresh_token":
		resp, err = s.rotateDesktopToken(r.Context(), f.Get("refresh_token"))
	default:
		writeJSON(w, http.StatusBadRequest, tokenError{"unsupported_grant_type", "use grant_type=authorization_code or refresh_token"})
		return
	}
	var te *tokenError
	if errors.As(err, &te) {
		writeJSON(w, http.StatusBadRequest, te)
		return
	}
	if err != nil {
		s.log.Error("desktop token", "err", err)
		writeJSON(w, http.StatusServiceUnavailable, tokenError{"temporarily_unavailable", "the team server cannot reach its database right now: try again in a moment"})
		return
	}
	writeJSON(w, http.StatusOK, resp)
}

// inFamily runs fn in a transaction that holds the family's advisory lock:
// a rotation, a redemption and a revocation of one family take turns
// across replicas, and a revocation's UPDATE sees every token it holds. A
// refusal fn returns is committed with what fn changed (a burnt code, a
// revoked family).
func (s *Service) inFamily(ctx context.Context, family string, fn func(pgx.Tx) error) error {
	tx, err := s.db.Begin(ctx)
	if err != nil {
		return fmt.Errorf("starting a token transaction: %w", err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, int32(desktopFamilyLock&0x7fffffff), family); err != nil {
		return fmt.Errorf("locking the token family: %w", err)
	}
	ferr := fn(tx)
	var te *tokenError
	if ferr != nil && !errors.As(ferr, &te) {
		return ferr
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("committing the token change: %w", err)
	}
	return ferr
}

func (s *Service) revokeFamily(ctx context.Context, tx pgx.Tx, family string) error {
	if _, err := tx.Exec(ctx, `UPDATE teamauth_desktop_tokens SET revoked = true WHERE family = $1`, family); err != nil {
		return fmt.Errorf("revoking the token family: %w", err)
	}
	return nil
}

// redeemDesktopCode redeems a code once. A second use revokes what the
// first issued (RFC 6749 §4.1.2): the code may have been stolen.
func (s *Service) redeemDesktopCode(ctx context.Context, code, verifier, redirect string) (*TokenResponse, error) {
	if code == "" || len(code) > 200 {
		return nil, invalidGrant("no authorization code: start the sign-in again")
	}
	family := hashSecret(code)
	var resp *TokenResponse
	err := s.inFamily(ctx, family, func(tx pgx.Tx) error {
		var person, redirectURI, challenge, device string
		var expires time.Time
		var used bool
		err := tx.QueryRow(ctx, `SELECT person_id, redirect_uri, challenge, device, expires_at, used FROM teamauth_desktop_codes
			WHERE hash = $1 FOR UPDATE`, family).Scan(&person, &redirectURI, &challenge, &device, &expires, &used)
		if errors.Is(err, pgx.ErrNoRows) {
			return invalidGrant("unknown authorization code: start the sign-in again")
		}
		if err != nil {
			return fmt.Errorf("reading the code: %w", err)
		}
		if used {
			if err := s.revokeFamily(ctx, tx, family); err != nil {
				return err
			}
			return invalidGrant("this authorization code was already used; the sign-in it started is revoked: sign in again")
		}
		// burnt whatever follows: a failed guess must not leave it usable
		if _, err := tx.Exec(ctx, `UPDATE teamauth_desktop_codes SET used = true WHERE hash = $1`, family); err != nil {
			return fmt.Errorf("redeeming the code: %w", err)
		}
		switch {
		case !s.now().Before(expires):
			return invalidGrant("the authorization code expired: start the sign-in again")
		case !sameSecret(redirect, redirectURI):
			return invalidGrant("redirect_uri does not match the sign-in request")
		case !pkceMatches(verifier, challenge):
			return invalidGrant("the PKCE code_verifier does not match the code_challenge")
		}
		resp, err = s.issueDesktopTokens(ctx, tx, family, person, device)
		return err
	})
	return resp, err
}

// rotateDesktopToken trades a refresh token for a new pair. Presenting
// one that was already used revokes its whole family: the desktop or a
// thief holds a copy, and neither can tell which.
func (s *Service) rotateDesktopToken(ctx context.Context, token string) (*TokenResponse, error) {
	if !strings.HasPrefix(token, desktopRefreshPfx) || len(token) > 200 {
		return nil, invalidGrant("unknown refresh token: sign in again")
	}
	h := hashSecret(token)
	var family string
	err := s.db.QueryRow(ctx, `SELECT family FROM teamauth_desktop_tokens WHERE hash = $1 AND kind = 'refresh'`, h).Scan(&family)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, invalidGrant("unknown refresh token: sign in again")
	}
	if err != nil {
		return nil, fmt.Errorf("reading the refresh token: %w", err)
	}
	var resp *TokenResponse
	err = s.inFamily(ctx, family, func(tx pgx.Tx) error {
		var person, device string
		var expires time.Time
		var used, revoked bool
		if err := tx.QueryRow(ctx, `SELECT person_id, device, expires_at, used, revoked FROM teamauth_desktop_tokens
			WHERE hash = $1 FOR UPDATE`, h).Scan(&person, &device, &expires, &used, &revoked); err != nil {
			return fmt.Errorf("reading the refresh token: %w", err)
		}
		switch {
		case used:
			if err := s.revokeFamily(ctx, tx, family); err != nil {
				return err
			}
			s.log.Warn("a used desktop refresh token came back; its sign-in is revoked", "person", person, "device", device)
			return invalidGrant("this refresh token was already used; the sign-in is revoked: sign in again")
		case revoked:
			return invalidGrant("this sign-in was signed out: sign in again")
		case !s.now().Before(expires):
			return invalidGrant("this sign-in expired: sign in again")
		}
		if _, err := tx.Exec(ctx, `UPDATE teamauth_desktop_tokens SET used = true WHERE hash = $1`, h); err != nil {
			return fmt.Errorf("rotating the refresh token: %w", err)
		}
		var err error
		resp, err = s.issueDesktopTokens(ctx, tx, family, person, device)
		return err
	})
	return resp, err
}

func (s *Service) issueDesktopTokens(ctx context.Context, tx pgx.Tx, family, person, device string) (*TokenResponse, error) {
	at, rt := newSecret(desktopTokenPrefix), newSecret(desktopRefreshPfx)
	now := s.now()
	for _, t := range []struct {
		secret, kind string
		ttl          time.Duration
	}{{at, "access", s.accessTTL()}, {rt, "refresh", s.refreshTTL()}} {
		if _, err := tx.Exec(ctx, `INSERT INTO teamauth_desktop_tokens (hash, kind, family, person_id, device, created_at, expires_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, hashSecret(t.secret), t.kind, family, person, device, now, now.Add(t.ttl)); err != nil {
			return nil, fmt.Errorf("issuing desktop tokens: %w", err)
		}
	}
	return &TokenResponse{AccessToken: at, TokenType: "Bearer", ExpiresIn: int64(s.accessTTL() / time.Second), RefreshToken: rt}, nil
}

// ErrBadToken means a desktop's access token is unknown, expired or
// signed out: refresh it, or sign in again.
var ErrBadToken = errors.New("the access token is unknown, expired or signed out")

// DesktopPerson is the person a desktop's access token (from an
// Authorization: Bearer header) acts for, and the device it names.
func (s *Service) DesktopPerson(r *http.Request) (Person, string, error) {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || !strings.HasPrefix(tok, desktopTokenPrefix) || len(tok) > 200 {
		return Person{}, "", ErrBadToken
	}
	var p Person
	var device string
	err := s.db.QueryRow(r.Context(), `SELECT p.id, p.issuer, p.subject, p.email, p.email_verified, p.name, t.device
		FROM teamauth_desktop_tokens t JOIN teamauth_people p ON p.id = t.person_id
		WHERE t.hash = $1 AND t.kind = 'access' AND NOT t.revoked AND t.expires_at > $2`, hashSecret(tok), s.now()).
		Scan(&p.ID, &p.Issuer, &p.Subject, &p.Email, &p.EmailVerified, &p.Name, &device)
	if errors.Is(err, pgx.ErrNoRows) {
		return Person{}, "", ErrBadToken
	}
	if err != nil {
		return Person{}, "", fmt.Errorf("reading the access token: %w", err)
	}
	return p, device, nil
}

func (s *Service) handleDesktopMe(w http.ResponseWriter, r *http.Request) {
	p, device, err := s.DesktopPerson(r)
	if errors.Is(err, ErrBadToken) {
		w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
		writeJSON(w, http.StatusUnauthorized, tokenError{"invalid_token", "the access token is unknown, expired or signed out: refresh it or sign in again"})
		return
	}
	if err == nil {
		var ws []Workspace
		if ws, err = s.Workspaces(r.Context(), p.ID); err == nil {
			if ws == nil {
				ws = []Workspace{}
			}
			writeJSON(w, http.StatusOK, DesktopMe{Person: p, Workspaces: ws, Device: device, DesktopAPI: DesktopAPI})
			return
		}
	}
	s.log.Error("desktop me", "err", err)
	writeJSON(w, http.StatusServiceUnavailable, tokenError{"temporarily_unavailable", "the team server cannot reach its database right now: try again in a moment"})
}

// handleDesktopRevoke signs a desktop out (RFC 7009): either of its
// tokens revokes the whole family. An unknown token is not an error.
func (s *Service) handleDesktopRevoke(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 8<<10)
	if err := r.ParseForm(); err != nil {
		writeJSON(w, http.StatusBadRequest, tokenError{"invalid_request", "send the token as a form field"})
		return
	}
	tok := r.PostForm.Get("token")
	var family, person string
	err := s.db.QueryRow(r.Context(), `SELECT family, person_id FROM teamauth_desktop_tokens WHERE hash = $1`, hashSecret(tok)).Scan(&family, &person)
	if err == nil {
		err = s.inFamily(r.Context(), family, func(tx pgx.Tx) error { return s.revokeFamily(r.Context(), tx, family) })
		if err == nil {
			s.log.Info("desktop signed out", "person", person)
		}
	}
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		s.log.Error("desktop revoke", "err", err)
		writeJSON(w, http.StatusServiceUnavailable, tokenError{"temporarily_unavailable", "the team server cannot reach its database right now: try again in a moment"})
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
}
