package connect

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var noFollow = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func (e *env) count(table string) int {
	e.t.Helper()
	var n int
	if err := e.db.QueryRow(`SELECT COUNT(*) FROM ` + table).Scan(&n); err != nil {
		e.t.Fatal(err)
	}
	return n
}

// Unauthenticated requests cannot grow the database without bound: big
// parameters are refused before anything is stored.
func TestAuthorizeRefusesOversizedParameters(t *testing.T) {
	e := newEnv(t)
	client := e.register("http://127.0.0.1:9/cb")
	_, ch := pkcePair("p")
	base := e.authURL(authParams{client: client, redirect: "http://127.0.0.1:9/cb", challenge: ch})
	big := strings.Repeat("A", 900<<10)
	for _, c := range []struct{ param, value string }{
		{"state", big},
		{"state", strings.Repeat("s", 4097)},
		{"scope", strings.Repeat("osfoundry:read ", 200)},
		{"resource", "http://127.0.0.1/" + strings.Repeat("r", 5000)},
		{"client_id", client + strings.Repeat("x", 300)},
	} {
		u, _ := url.Parse(base)
		q := u.Query()
		q.Set(c.param, c.value)
		u.RawQuery = q.Encode()
		resp, err := noFollow.Get(u.String())
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Location") != "" {
			t.Errorf("%s of %d bytes: %d, want 400 without a redirect", c.param, len(c.value), resp.StatusCode)
		}
	}
	if n := e.count("connect_auth_requests"); n != 0 {
		t.Fatalf("%d oversized requests stored", n)
	}
	// A registration body of a megabyte is refused too.
	body, _ := json.Marshal(map[string]any{"client_name": "x", "redirect_uris": []string{"http://127.0.0.1:9/cb"}, "client_uri": "https://a.example/" + strings.Repeat("u", 40<<10)})
	resp, err := http.Post(e.srv.BaseURL()+registerPath, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("40 KB registration: %d, want 400", resp.StatusCode)
	}
	st, err := os.Stat(filepath.Join(filepath.Dir(e.dbPath), "osfoundry.db-wal"))
	if err == nil && st.Size() > 4<<20 {
		t.Fatalf("WAL grew to %d bytes", st.Size())
	}
}

// Waiting requests expire in minutes and unused registrations in days,
// on a timer, without anyone consenting.
func TestUnusedRequestsAndRegistrationsExpire(t *testing.T) {
	e := newEnvWith(t, ServerConfig{PurgeEvery: 20 * time.Millisecond})
	used := e.login(e.browser(true), "", false)
	unused := e.register("http://127.0.0.1:9/cb")
	_, ch := pkcePair("e")
	resp, err := http.Get(e.authURL(authParams{client: unused, redirect: "http://127.0.0.1:9/cb", challenge: ch}))
	must(t, err)
	resp.Body.Close()
	if n := e.count("connect_auth_requests"); n != 1 {
		t.Fatalf("waiting requests: %d", n)
	}
	e.clock.Add(authRequestTTL + time.Minute)
	e.waitFor("the waiting request to expire", func() bool { return e.count("connect_auth_requests") == 0 })
	if n := e.count("connect_clients"); n != 2 {
		t.Fatalf("clients purged too early: %d", n)
	}
	e.clock.Add(UnusedClientTTL)
	e.waitFor("the unused registration to expire", func() bool { return e.count("connect_clients") == 1 })
	if _, err := e.svc.client(bg, used.client); err != nil {
		t.Fatalf("the client holding a connection was purged: %v", err)
	}
}

func (e *env) waitFor(what string, ok func() bool) {
	e.t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if ok() {
			return
		}
	}
	e.t.Fatalf("timed out waiting for %s", what)
}

// Registration and authorize are rate limited per client address.
func TestRegistrationAndAuthorizeAreRateLimited(t *testing.T) {
	e := newEnv(t)
	body, _ := json.Marshal(map[string]any{"client_name": "flood", "redirect_uris": []string{"http://127.0.0.1:9/cb"}})
	limited := 0
	for i := 0; i < 100; i++ {
		resp, err := http.Post(e.srv.BaseURL()+registerPath, "application/json", bytes.NewReader(body))
		must(t, err)
		resp.Body.Close()
		if resp.StatusCode == http.StatusTooManyRequests {
			limited++
			if resp.Header.Get("Retry-After") == "" {
				t.Fatal("429 without Retry-After")
			}
		}
	}
	if limited == 0 || e.count("connect_clients") > 40 {
		t.Fatalf("100 registrations: %d refused, %d stored", limited, e.count("connect_clients"))
	}
	e2 := newEnv(t)
	client := e2.register("http://127.0.0.1:9/cb")
	_, ch := pkcePair("r")
	limited = 0
	for i := 0; i < 200; i++ {
		resp, err := http.Get(e2.authURL(authParams{client: client, redirect: "http://127.0.0.1:9/cb", challenge: ch}))
		must(t, err)
		resp.Body.Close()
		if resp.StatusCode == http.StatusTooManyRequests {
			limited++
		}
	}
	if limited == 0 || e2.count("connect_auth_requests") > 100 {
		t.Fatalf("200 authorize GETs: %d refused, %d stored", limited, e2.count("connect_auth_requests"))
	}
}
