package teamauth

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// A full sign-in through the real redirects: the login on one replica, the
// provider's callback on the other; both then know the session, which is
// stored only as a hash, in a cookie scripts cannot read.
func TestSignInStartsOnOneReplicaAndFinishesOnTheOther(t *testing.T) {
	tm := newTeam(t)
	ctx := context.Background()
	tm.routeBy(func(r *http.Request) int {
		if r.URL.Path == loginPath {
			return 0
		}
		return 1
	})
	b := tm.browser()
	auth := b.startLogin("/auth/me")
	state := mustQuery(t, auth, "state")
	var stored, clear int
	if err := tm.pool.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE state_hash = $1 OR nonce = $1) FROM teamauth_logins`, state).Scan(&stored, &clear); err != nil {
		t.Fatal(err)
	}
	if stored != 1 || clear != 0 {
		t.Fatalf("sign-ins stored: %d, with the state in clear: %d; want 1 and 0", stored, clear)
	}
	if mustQuery(t, auth, "code_challenge_method") != "S256" || mustQuery(t, auth, "nonce") == "" {
		t.Fatalf("the authorization request lacks PKCE or a nonce: %s", auth)
	}
	cb := b.atProvider(auth, "alice")
	p := b.get(cb)
	if p.Code != http.StatusOK || p.URL.Path != mePath {
		t.Fatalf("callback on the other replica: %d at %s\n%s", p.Code, p.URL, p.Body)
	}
	if tm.served[0].Load() != 1 {
		t.Fatalf("replica 0 served %d requests, want only the login", tm.served[0].Load())
	}
	me := b.me()
	if me.Email != "alice@example.com" || !me.EmailVerified || me.Subject != "sub-alice" || me.Issuer != tm.op.URL || me.Name != "Alice A" {
		t.Fatalf("signed in as %+v", me)
	}
	tm.routeBy(func(*http.Request) int { return 0 })
	if again := b.me(); again.ID != me.ID {
		t.Fatalf("the login replica does not know the session: %+v", again)
	}

	c := b.cookie(sessionCookie)
	if c == nil {
		t.Fatal("no session cookie")
	}
	var hashed int
	if err := tm.pool.QueryRow(ctx, `SELECT count(*) FROM teamauth_sessions WHERE hash = $1 AND person_id = $2`, hashSecret(c.Value), me.ID).Scan(&hashed); err != nil || hashed != 1 {
		t.Fatalf("sessions stored under the cookie's hash: %d, %v", hashed, err)
	}
	if err := tm.pool.QueryRow(ctx, `SELECT count(*) FROM teamauth_logins`).Scan(&stored); err != nil || stored != 0 {
		t.Fatalf("sign-ins left after the callback: %d, %v", stored, err)
	}
	// the cookie's attributes, as the server sent them
	_, _ = b.step("GET", tm.URL+loginPath, nil)
	p, _ = b.step("GET", b.atProvider(b.startLogin("/"), "alice"), nil)
	set := strings.Join(p.Hdr.Values("Set-Cookie"), "\n")
	if !strings.Contains(set, sessionCookie+"=osfs_") || !strings.Contains(set, "HttpOnly") || !strings.Contains(set, "SameSite=Strict") || strings.Contains(set, "Secure") {
		t.Fatalf("session cookie on http: %s", set)
	}
	// The callback is the end of another site's navigation: it lands on a
	// page of this site that goes on (a Strict cookie would be left out of
	// a redirect), and the sign-in cookie, the only Lax one, is cleared.
	if p.Code != http.StatusOK || !strings.Contains(p.Body, `<meta http-equiv="refresh" content="0;url=/">`) || p.Hdr.Get("Location") != "" {
		t.Fatalf("the callback's answer: %d %q\n%s", p.Code, p.Hdr.Get("Location"), p.Body)
	}
	if !strings.Contains(set, loginCookie+"=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax") {
		t.Fatalf("the callback does not clear the sign-in cookie: %s", set)
	}
	if b.cookie(sessionCookie).Value == c.Value {
		t.Fatal("signing in again kept the old session value")
	}
	var left int
	if err := tm.pool.QueryRow(ctx, `SELECT count(*) FROM teamauth_sessions WHERE hash = $1`, hashSecret(c.Value)).Scan(&left); err != nil || left != 0 {
		t.Fatalf("the replaced session still exists: %d, %v", left, err)
	}
}

// Callbacks that must not sign anyone in.
func TestCallbackRefusals(t *testing.T) {
	cases := []struct {
		name string
		run  func(t *testing.T, tm *team, b *browser) page
		want string
	}{
		{"an ID token past its expiry", func(t *testing.T, tm *team, b *browser) page {
			cb := b.atProvider(b.startLogin("/"), "alice")
			tm.clock.Advance(2 * time.Hour) // the provider's ID tokens live an hour
			return b.get(cb)
		}, "token is expired"},
		{"a code issued to another client", func(t *testing.T, tm *team, b *browser) page {
			auth := withQuery(t, b.startLogin("/"), "client_id", tm.op.clientID+"-other")
			return b.get(b.atProvider(auth, "alice"))
		}, "redeeming the code"},
		{"forged state", func(t *testing.T, tm *team, b *browser) page {
			cb := b.atProvider(b.startLogin("/"), "alice")
			return b.get(withQuery(t, cb, "state", newSecret("osfst_")))
		}, "unknown or was already finished"},
		{"replayed callback", func(t *testing.T, tm *team, b *browser) page {
			cb := b.atProvider(b.startLogin("/auth/me"), "alice")
			if p := b.get(cb); p.Code != http.StatusOK {
				t.Fatalf("first use: %d %s", p.Code, p.Body)
			}
			if err := b.api("POST", logoutPath, nil, nil); err != http.StatusNoContent {
				t.Fatalf("sign out: %d", err)
			}
			return b.get(cb)
		}, "unknown or was already finished"},
		{"callback in another browser", func(t *testing.T, tm *team, b *browser) page {
			cb := b.atProvider(b.startLogin("/"), "alice")
			return tm.browser().get(cb)
		}, "started in another browser"},
		{"nonce changed on the way to the provider", func(t *testing.T, tm *team, b *browser) page {
			auth := withQuery(t, b.startLogin("/"), "nonce", "attacker-chosen")
			return b.get(b.atProvider(auth, "alice"))
		}, "nonce mismatch"},
		{"sign-in that took too long", func(t *testing.T, tm *team, b *browser) page {
			cb := b.atProvider(b.startLogin("/"), "alice")
			tm.clock.Advance(3*time.Hour + time.Minute)
			return b.get(cb)
		}, "took too long"},
		{"no state at all", func(t *testing.T, tm *team, b *browser) page {
			return b.get(tm.URL + callbackPath + "?code=x")
		}, "has no state"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tm := newTeam(t, func(c *Config) { c.LoginTTL = 3 * time.Hour })
			b := tm.browser()
			p := c.run(t, tm, b)
			tm.clock.Reset()
			if p.Code != http.StatusBadRequest || !strings.Contains(p.Body, c.want) || !strings.Contains(p.Body, "start again") {
				t.Fatalf("callback: %d %q, want 400 saying %q and what to do", p.Code, p.Body, c.want)
			}
			if me := b.me(); me.ID != "" {
				t.Fatalf("signed in as %+v after a refused callback", me)
			}
		})
	}
}

// A session ends when it expires and, on every replica, when its person
// signs out; another site cannot sign anyone out.
func TestSessionExpiryAndSignOut(t *testing.T) {
	tm := newTeam(t)
	b := tm.browser()
	if b.signIn("bob").ID == "" {
		t.Fatal("not signed in")
	}
	tm.clock.Advance(12*time.Hour - time.Minute)
	if b.me().ID == "" {
		t.Fatal("the session ended before its time")
	}
	tm.clock.Advance(2 * time.Minute)
	if me := b.me(); me.ID != "" {
		t.Fatalf("an expired session still signs in %+v", me)
	}
	var code int
	var e apiError
	if code = b.api("GET", "/api/workspaces", nil, &e); code != http.StatusUnauthorized || e.Login != tm.URL+loginPath {
		t.Fatalf("API with an expired session: %d %+v", code, e)
	}

	tm.clock.Reset() // the provider's tokens are minted in real time
	b.signIn("bob")
	p, _ := b.step("POST", tm.URL+logoutPath, nil, "Origin", "https://evil.example")
	if p.Code != http.StatusForbidden || b.me().ID == "" {
		t.Fatalf("a cross-site sign-out: %d, signed in: %v", p.Code, b.me().ID != "")
	}
	tm.routeBy(func(*http.Request) int { return 0 })
	p, loc := b.step("POST", tm.URL+logoutPath, nil, "Origin", tm.URL)
	if p.Code != http.StatusSeeOther || loc != tm.URL+"/" {
		t.Fatalf("sign out: %d to %q", p.Code, loc)
	}
	tm.routeBy(func(*http.Request) int { return 1 })
	if me := b.me(); me.ID != "" {
		t.Fatalf("the other replica still knows the signed-out session: %+v", me)
	}
}

// An issuer that does not match the provider's discovery document stops
// sign-ins with a message for the operator, not a crash.
func TestMisconfiguredIssuerSaysWhatToCheck(t *testing.T) {
	tm := newTeam(t, func(c *Config) { c.Issuer += "/" })
	b := tm.browser()
	p, _ := b.step("GET", tm.URL+loginPath, nil)
	if p.Code != http.StatusServiceUnavailable || !strings.Contains(p.Body, "check the issuer URL") {
		t.Fatalf("login with a wrong issuer: %d %q", p.Code, p.Body)
	}
}

func TestReturnToStaysOnThisServer(t *testing.T) {
	for in, want := range map[string]string{
		"":                              "/",
		"/oauth/authorize?x=1":          "/oauth/authorize?x=1",
		"//evil.example/x":              "/",
		"https://evil.example/":         "/",
		"/\\evil.example":               "/",
		"javascript:alert(1)":           "/",
		"/ok\r\nSet-Cookie: a=b":        "/",
		"/" + strings.Repeat("a", 3000): "/",
	} {
		if got := safeReturn(in); got != want {
			t.Errorf("safeReturn(%q) = %q, want %q", in, got, want)
		}
	}
}

func mustQuery(t *testing.T, u, key string) string {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	return p.Query().Get(key)
}

func withQuery(t *testing.T, u, key, value string) string {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	q := p.Query()
	q.Set(key, value)
	p.RawQuery = q.Encode()
	return p.String()
}
