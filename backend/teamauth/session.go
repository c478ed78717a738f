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

// ErrNoSession means the request carries no live session: send the browser
// to LoginURL.
var ErrNoSession = errors.New("not signed in")

// Person is someone who signed in with the company's provider.
type Person struct {
	ID      string `json:"id"`
	Issuer  string `json:"issuer"`
	Subject string `json:"subject"`
	Email   string `json:"email"`
	// EmailVerified is the provider's word that Email is theirs; only a
	// verified email claims invitations.
	EmailVerified bool   `json:"email_verified"`
	Name          string `json:"name"`
}

const (
	sessionCookie = "osf_team_session"
	loginCookie   = "osf_team_login"
)

// cookieNames carry the __Host- prefix on https, which no sibling
// subdomain can set or overwrite.
type cookieNames struct{ session, login string }

func newCookieNames(secure bool) cookieNames {
	if secure {
		return cookieNames{"__Host-" + sessionCookie, "__Host-" + loginCookie}
	}
	return cookieNames{sessionCookie, loginCookie}
}

// setCookie writes an HttpOnly cookie for the whole site. The session
// cookie is SameSite=Strict: no request another site starts carries it,
// not even a link followed from there. Only the short-lived sign-in cookie
// is Lax, because the provider's redirect back to the callback is a
// top-level navigation from another site that must carry it.
func (s *Service) setCookie(w http.ResponseWriter, name, value string, maxAge time.Duration) {
	same := http.SameSiteStrictMode
	if name == s.cookies.login {
		same = http.SameSiteLaxMode
	}
	c := &http.Cookie{Name: name, Value: value, Path: "/", HttpOnly: true, Secure: s.secure,
		SameSite: same, MaxAge: int(maxAge.Seconds())}
	if maxAge < 0 {
		c.MaxAge = -1
	}
	http.SetCookie(w, c)
}

func cookieValue(r *http.Request, name, prefix string) string {
	c, err := r.Cookie(name)
	if err != nil || !strings.HasPrefix(c.Value, prefix) || len(c.Value) > 200 {
		return ""
	}
	return c.Value
}

// Person is the person signed in on r's browser, if any. A database that
// cannot be reached reads as signed out (and is logged); use SessionPerson
// to tell the two apart.
func (s *Service) Person(r *http.Request) (Person, bool) {
	p, err := s.SessionPerson(r)
	if err != nil && !errors.Is(err, ErrNoSession) {
		s.log.Warn("reading a session", "err", err)
	}
	return p, err == nil
}

// SessionPerson is the person signed in on r's browser; ErrNoSession when
// none (or the session expired or was signed out).
func (s *Service) SessionPerson(r *http.Request) (Person, error) {
	v := cookieValue(r, s.cookies.session, "osfs_")
	if v == "" {
		return Person{}, ErrNoSession
	}
	return s.sessionPerson(r.Context(), v)
}

func (s *Service) sessionPerson(ctx context.Context, value string) (Person, error) {
	var p Person
	err := s.db.QueryRow(ctx, `SELECT p.id, p.issuer, p.subject, p.email, p.email_verified, p.name
		FROM teamauth_sessions s JOIN teamauth_people p ON p.id = s.person_id
		WHERE s.hash = $1 AND s.expires_at > $2`, hashSecret(value), s.now()).
		Scan(&p.ID, &p.Issuer, &p.Subject, &p.Email, &p.EmailVerified, &p.Name)
	if errors.Is(err, pgx.ErrNoRows) {
		return Person{}, ErrNoSession
	}
	if err != nil {
		return Person{}, fmt.Errorf("reading the session: %w", err)
	}
	return p, nil
}

// startSession stores a new session for person and sets its cookie. A
// session the browser already had is ended: a sign-in always gets a fresh
// value (no fixation).
func (s *Service) startSession(ctx context.Context, w http.ResponseWriter, r *http.Request, personID string) error {
	if old := cookieValue(r, s.cookies.session, "osfs_"); old != "" {
		if _, err := s.db.Exec(ctx, `DELETE FROM teamauth_sessions WHERE hash = $1`, hashSecret(old)); err != nil {
			return fmt.Errorf("ending the previous session: %w", err)
		}
	}
	v := newSecret("osfs_")
	now := s.now()
	if _, err := s.db.Exec(ctx, `INSERT INTO teamauth_sessions (hash, person_id, created_at, expires_at, user_agent) VALUES ($1, $2, $3, $4, $5)`,
		hashSecret(v), personID, now, now.Add(s.cfg.SessionTTL), UserAgent(r)); err != nil {
		return fmt.Errorf("storing the session: %w", err)
	}
	s.setCookie(w, s.cookies.session, v, s.cfg.SessionTTL)
	return nil
}

// endSession deletes r's session (on every replica at once) and its cookie.
func (s *Service) endSession(ctx context.Context, w http.ResponseWriter, r *http.Request) error {
	if v := cookieValue(r, s.cookies.session, "osfs_"); v != "" {
		if _, err := s.db.Exec(ctx, `DELETE FROM teamauth_sessions WHERE hash = $1`, hashSecret(v)); err != nil {
			return fmt.Errorf("ending the session: %w", err)
		}
	}
	s.setCookie(w, s.cookies.session, "", -1)
	return nil
}

// SignOutEverywhere ends every session of person (for an operator who
// learns a laptop was stolen), in browsers and desktops alike.
func (s *Service) SignOutEverywhere(ctx context.Context, personID string) error {
	if _, err := s.db.Exec(ctx, `DELETE FROM teamauth_sessions WHERE person_id = $1`, personID); err != nil {
		return fmt.Errorf("ending %s's sessions: %w", personID, err)
	}
	if _, err := s.db.Exec(ctx, `UPDATE teamauth_desktop_tokens SET revoked = true WHERE person_id = $1`, personID); err != nil {
		return fmt.Errorf("signing %s's desktops out: %w", personID, err)
	}
	return nil
}

// Sweep deletes expired sessions, sign-ins and bootstrap links; the server
// may call it now and then (expired rows are never honoured either way).
func (s *Service) Sweep(ctx context.Context) error {
	now := s.now()
	for _, q := range []string{
		`DELETE FROM teamauth_sessions WHERE expires_at <= $1`,
		`DELETE FROM teamauth_logins WHERE expires_at <= $1`,
		`DELETE FROM teamauth_bootstrap WHERE expires_at <= $1`,
		`DELETE FROM teamauth_desktop_requests WHERE expires_at <= $1`,
		`DELETE FROM teamauth_desktop_codes WHERE expires_at <= $1`,
		// a family whose refresh token expired is gone as a whole
		`DELETE FROM teamauth_desktop_tokens t WHERE t.expires_at <= $1 AND NOT EXISTS (SELECT 1 FROM teamauth_desktop_tokens u
			WHERE u.family = t.family AND u.kind = 'refresh' AND u.expires_at > $1)`,
	} {
		if _, err := s.db.Exec(ctx, q, now); err != nil {
			return fmt.Errorf("sweeping expired sign-in rows: %w", err)
		}
	}
	return nil
}

// SessionKey names the sign-in on r's browser without being its cookie
// (the SHA-256 the sessions table keeps): "" when it carries none. The
// consent page binds a waiting request to it, so only the sign-in it was
// shown to can approve it.
func (s *Service) SessionKey(r *http.Request) string {
	v := cookieValue(r, s.cookies.session, "osfs_")
	if v == "" {
		return ""
	}
	return hashSecret(v)
}
