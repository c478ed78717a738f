package teamauth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// A person's browsers are their web sessions: each may see the Needs you
// page and answer from it, so each is listed with where it runs and can
// be signed out on its own (a lost phone). Signing one out deletes its
// session row, so every replica refuses it from its next request on.

// Browser is one signed-in browser of a person.
type Browser struct {
	// ID names it to the page (a digest of its session's hash, which it
	// never shows).
	ID        string    `json:"id"`
	Name      string    `json:"name"` // "Chrome on Android"
	UserAgent string    `json:"user_agent"`
	SignedIn  time.Time `json:"signed_in"`
	Expires   time.Time `json:"expires"`
	// Current marks the browser that asked.
	Current bool `json:"current"`
	// Key is the session's hash (SessionKey), for the server's own parts.
	Key string `json:"-"`
}

// BrowserID is the page's name for a session key (SessionKey).
func BrowserID(key string) string {
	h := sha256.Sum256([]byte("osfoundry browser\x00" + key))
	return "b_" + hex.EncodeToString(h[:10])
}

// maxUserAgent is how much of a User-Agent a session keeps.
const maxUserAgent = 200

// UserAgent is r's User-Agent, one line of at most 200 characters.
func UserAgent(r *http.Request) string {
	ua := strings.Map(func(c rune) rune {
		if c < ' ' || c == 0x7f {
			return ' '
		}
		return c
	}, r.UserAgent())
	if len(ua) > maxUserAgent {
		ua = ua[:maxUserAgent]
	}
	return strings.ToValidUTF8(ua, "")
}

// BrowserName says in a few words what browser ua is and where it runs.
func BrowserName(ua string) string {
	app := "A browser"
	for _, b := range []struct{ token, name string }{{"Edg/", "Edge"}, {"OPR/", "Opera"}, {"Firefox/", "Firefox"}, {"FxiOS", "Firefox"},
		{"CriOS", "Chrome"}, {"Chrome/", "Chrome"}, {"Chromium", "Chromium"}, {"Safari/", "Safari"}} {
		if strings.Contains(ua, b.token) {
			app = b.name
			break
		}
	}
	for _, o := range []struct{ token, name string }{{"iPhone", "iPhone"}, {"iPad", "iPad"}, {"Android", "Android"},
		{"Windows", "Windows"}, {"Macintosh", "a Mac"}, {"CrOS", "ChromeOS"}, {"Linux", "Linux"}} {
		if strings.Contains(ua, o.token) {
			return app + " on " + o.name
		}
	}
	return app
}

// Browsers lists person's signed-in browsers, newest first; current is
// the asking browser's SessionKey ("" for none).
func (s *Service) Browsers(ctx context.Context, personID, current string) ([]Browser, error) {
	rows, err := s.db.Query(ctx, `SELECT hash, user_agent, created_at, expires_at FROM teamauth_sessions
		WHERE person_id = $1 AND expires_at > $2 ORDER BY created_at DESC`, personID, s.now())
	if err != nil {
		return nil, fmt.Errorf("reading your browsers: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Browser, error) {
		var b Browser
		err := r.Scan(&b.Key, &b.UserAgent, &b.SignedIn, &b.Expires)
		b.ID, b.Name, b.Current = BrowserID(b.Key), BrowserName(b.UserAgent), b.Key == current && current != ""
		return b, err
	})
	if err != nil {
		return nil, fmt.Errorf("reading your browsers: %w", err)
	}
	if out == nil {
		out = []Browser{}
	}
	return out, nil
}

// SignOutBrowser ends the session of person's browser id (BrowserID) on
// every replica at once and returns its key (SessionKey); ok is false
// when person has no such browser signed in.
func (s *Service) SignOutBrowser(ctx context.Context, personID, id string) (key string, ok bool, err error) {
	bs, err := s.Browsers(ctx, personID, "")
	if err != nil {
		return "", false, err
	}
	for _, b := range bs {
		if b.ID != id {
			continue
		}
		if _, err := s.db.Exec(ctx, `DELETE FROM teamauth_sessions WHERE hash = $1 AND person_id = $2`, b.Key, personID); err != nil {
			return "", false, fmt.Errorf("signing the browser out: %w", err)
		}
		return b.Key, true, nil
	}
	return "", false, nil
}

// SessionAlive says whether the session key (SessionKey) is still signed
// in; a database that cannot answer reads as alive (the next request
// checks again).
func (s *Service) SessionAlive(ctx context.Context, key string) bool {
	var n int
	err := s.db.QueryRow(ctx, `SELECT count(*) FROM teamauth_sessions WHERE hash = $1 AND expires_at > $2`, key, s.now()).Scan(&n)
	return err != nil || n > 0
}
