package connect

import (
	"context"
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
	if err := s.st.InsertSession(ctx, SessionRow{Hash: hashSecret(tok), UserID: userID, Kind: "signin", ExpiresAt: s.now().Add(ttl)}); err != nil {
		return "", fmt.Errorf("creating sign-in link: %w", err)
	}
	return tok, nil
}

// redeemSignIn burns a sign-in token and opens a session for its user.
// The token is taken before anything else, so of two browsers opening
// one link (on two replicas) at most one is signed in.
func (s *Service) redeemSignIn(ctx context.Context, tok string) (session string, err error) {
	link, err := s.st.TakeSession(ctx, hashSecret(tok), "signin")
	if errors.Is(err, ErrNotFound) {
		return "", errSignIn
	}
	if err != nil {
		return "", fmt.Errorf("signing in: %w", err)
	}
	if s.expired(link.ExpiresAt) {
		return "", errSignIn
	}
	session = newSecret("osfx_")
	if err := s.st.InsertSession(ctx, SessionRow{Hash: hashSecret(session), UserID: link.UserID, Kind: "session",
		ExpiresAt: s.now().Add(sessionTTL)}); err != nil {
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
	row, err := s.st.Session(r.Context(), h, "session")
	if err != nil || s.expired(row.ExpiresAt) {
		return "", ""
	}
	return row.UserID, h
}
