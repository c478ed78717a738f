package connect

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Owner sign-in. The consent page needs a signed-in person: the approver.
// Nobody types a password into a loopback server; instead the app (or
// `osfoundry connections signin-link` on a headless server) mints a
// one-time sign-in link. Opening it in the browser sets an HttpOnly
// session cookie for that person.
const (
	SignInTTL     = 15 * time.Minute
	sessionTTL    = 30 * 24 * time.Hour
	sessionCookie = "osf_session"
)

// SignInToken mints a single-use sign-in token for user, valid for ttl
// (SignInTTL when zero). Build the link with Server.SignInURL.
func (s *Service) SignInToken(ctx context.Context, userID string, ttl time.Duration) (string, error) {
	if ttl <= 0 {
		ttl = SignInTTL
	}
	if err := s.userExists(ctx, userID); err != nil {
		return "", err
	}
	tok := newSecret("osfs_")
	if _, err := s.db.ExecContext(ctx, `INSERT INTO connect_sessions (hash, user_id, kind, expires_at) VALUES (?, ?, 'signin', ?)`,
		hashSecret(tok), userID, s.now().Add(ttl).UnixMilli()); err != nil {
		return "", fmt.Errorf("creating sign-in link: %w", err)
	}
	return tok, nil
}

// redeemSignIn burns a sign-in token and opens a session for its user.
func (s *Service) redeemSignIn(ctx context.Context, tok string) (session string, err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return "", fmt.Errorf("signing in: %w", err)
	}
	defer tx.Rollback()
	var user string
	var expires int64
	err = tx.QueryRowContext(ctx, `SELECT user_id, expires_at FROM connect_sessions WHERE hash = ? AND kind = 'signin'`, hashSecret(tok)).Scan(&user, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return "", errSignIn
	}
	if err != nil {
		return "", fmt.Errorf("signing in: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM connect_sessions WHERE hash = ?`, hashSecret(tok)); err != nil {
		return "", fmt.Errorf("signing in: %w", err)
	}
	if s.now().UnixMilli() > expires {
		tx.Commit()
		return "", errSignIn
	}
	session = newSecret("osfx_")
	if _, err := tx.ExecContext(ctx, `INSERT INTO connect_sessions (hash, user_id, kind, expires_at) VALUES (?, ?, 'session', ?)`,
		hashSecret(session), user, s.now().Add(sessionTTL).UnixMilli()); err != nil {
		return "", fmt.Errorf("signing in: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return "", fmt.Errorf("signing in: %w", err)
	}
	return session, nil
}

var errSignIn = errors.New("this sign-in link is unknown, used or expired; ask osFoundry for a new one")

// sessionUser returns the user of the request's session cookie and the
// session's hash, or "" when not signed in.
func (s *Service) sessionUser(r *http.Request) (user, hash string) {
	c, err := r.Cookie(sessionCookie)
	if err != nil || c.Value == "" {
		return "", ""
	}
	h := hashSecret(c.Value)
	var expires int64
	err = s.db.QueryRowContext(r.Context(), `SELECT user_id, expires_at FROM connect_sessions WHERE hash = ? AND kind = 'session'`, h).Scan(&user, &expires)
	if err != nil || s.now().UnixMilli() > expires {
		return "", ""
	}
	return user, h
}
