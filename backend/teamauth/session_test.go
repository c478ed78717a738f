package teamauth

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/pgdb"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

// On https the session cookie is a __Host- cookie, Secure, HttpOnly and
// SameSite=Strict; Sweep removes it once expired.
func TestHTTPSSessionCookieAndSweep(t *testing.T) {
	ctx := context.Background()
	pool, err := pgdb.Open(ctx, pgtest.Database(t))
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	clk := &clock{}
	s, err := New(ctx, Config{Pool: pool, PublicURL: "https://team.example.com/", Issuer: "https://idp.example.com", ClientID: "c", Now: clk.NowFunc()})
	if err != nil {
		t.Fatal(err)
	}
	id, err := s.rememberPerson(ctx, Person{Issuer: "https://idp.example.com", Subject: "s1", Email: "a@example.com", EmailVerified: true})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	if err := s.startSession(ctx, rec, httptest.NewRequest("GET", "/", nil), id); err != nil {
		t.Fatal(err)
	}
	set := rec.Header().Get("Set-Cookie")
	for _, want := range []string{"__Host-osf_team_session=osfs_", "Path=/", "HttpOnly", "Secure", "SameSite=Strict", "Max-Age=43200"} {
		if !strings.Contains(set, want) {
			t.Fatalf("session cookie %q lacks %q", set, want)
		}
	}
	if strings.Contains(set, "Domain=") {
		t.Fatalf("a __Host- cookie must not name a domain: %q", set)
	}
	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("Cookie", strings.Split(set, ";")[0])
	if p, ok := s.Person(req); !ok || p.ID != id {
		t.Fatalf("Person: %+v %v", p, ok)
	}
	if s.LoginURL("/oauth/authorize?x=1") != "https://team.example.com/auth/login?return_to=%2Foauth%2Fauthorize%3Fx%3D1" {
		t.Fatalf("LoginURL: %s", s.LoginURL("/oauth/authorize?x=1"))
	}
	clk.Advance(DefaultSessionTTL)
	if _, ok := s.Person(req); ok {
		t.Fatal("a session at its expiry still counts")
	}
	if err := s.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM teamauth_sessions`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("sessions after the sweep: %d, %v", n, err)
	}
	// a request without the __Host- name (an http cookie) is not a session
	req = httptest.NewRequest("GET", "/", nil)
	req.AddCookie(&http.Cookie{Name: sessionCookie, Value: "osfs_x"})
	if _, err := s.SessionPerson(req); err != ErrNoSession {
		t.Fatalf("plain cookie name on https: %v", err)
	}
}

func TestNewSaysWhatToConfigure(t *testing.T) {
	ctx := context.Background()
	pool, err := pgdb.Open(ctx, pgtest.Database(t))
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	for _, c := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"no public URL", Config{Pool: pool, Issuer: "https://idp", ClientID: "c"}, "pass the address browsers use"},
		{"a public URL without scheme", Config{Pool: pool, PublicURL: "team.example.com", Issuer: "https://idp", ClientID: "c"}, "pass the address browsers use"},
		{"no issuer", Config{Pool: pool, PublicURL: "https://team.example.com", ClientID: "c"}, "pass the issuer URL and the client ID (and secret) registered there for https://team.example.com/auth/callback"},
		{"no client", Config{Pool: pool, PublicURL: "https://team.example.com", Issuer: "https://idp"}, "client ID"},
	} {
		if _, err := New(ctx, c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want it to say %q", c.name, err, c.want)
		}
	}
}
