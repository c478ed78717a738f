package connect

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// Registrations held together are bounded in number and in bytes: past
// either, registering answers 503 with an RFC 7591 error body that says
// what to do, and stores nothing.
func TestRegistrationsAreBoundedInCountAndBytes(t *testing.T) {
	post := func(e *env, name string) (*http.Response, map[string]any) {
		body, _ := json.Marshal(map[string]any{"client_name": name, "redirect_uris": []string{"http://127.0.0.1:9/cb"}})
		resp, err := http.Post(e.srv.BaseURL()+registerPath, "application/json", bytes.NewReader(body))
		must(t, err)
		defer resp.Body.Close()
		var out map[string]any
		json.NewDecoder(resp.Body).Decode(&out)
		return resp, out
	}
	full := func(what string, resp *http.Response, out map[string]any) {
		t.Helper()
		desc, _ := out["error_description"].(string)
		if resp.StatusCode != http.StatusServiceUnavailable || out["error"] != "temporarily_unavailable" ||
			!strings.Contains(desc, "try again later") || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("%s: %d %v (Retry-After %q), want 503 temporarily_unavailable saying to try later", what, resp.StatusCode, out, resp.Header.Get("Retry-After"))
		}
	}

	e := newEnvWith(t, ServerConfig{MaxClients: 3, RegisterPerMinute: -1})
	for i := 0; i < 3; i++ {
		if resp, out := post(e, "ok"); resp.StatusCode != http.StatusCreated {
			t.Fatalf("registration %d: %d %v", i+1, resp.StatusCode, out)
		}
	}
	resp, out := post(e, "one too many")
	full("a fourth registration", resp, out)
	if n := e.count("connect_clients"); n != 3 {
		t.Errorf("%d registrations stored, want 3", n)
	}

	e = newEnvWith(t, ServerConfig{MaxClientBytes: 4000, RegisterPerMinute: -1})
	name := strings.Repeat("n", maxClientName)
	for i := 0; ; i++ {
		resp, out := post(e, name)
		if resp.StatusCode == http.StatusCreated {
			if i > 40 {
				t.Fatal("registrations never stopped at 4000 bytes")
			}
			continue
		}
		full("registrations past 4000 bytes", resp, out)
		break
	}
	var stored int
	must(t, e.db.QueryRow(`SELECT SUM(LENGTH(id) + LENGTH(name) + LENGTH(redirect_uris) + LENGTH(metadata)) FROM connect_clients`).Scan(&stored))
	if stored > 4000 || stored < 3000 {
		t.Errorf("registrations hold %d bytes, want at most 4000 and close to it", stored)
	}
}

// Every loopback address counts as one in the rate limits: 127.0.0.1,
// 127.0.0.2, ::1 and ::ffff:127.x share one budget; another address has
// its own.
func TestRateLimitCountsLoopbackAsOneAddress(t *testing.T) {
	l := newAddrLimiter(newMemBuckets(), "registrations", 3, 0)
	for _, a := range []string{"127.0.0.1", "127.0.0.2", "127.255.0.9"} {
		if ok, _, _ := l.allow(bg, a); !ok {
			t.Fatalf("%s refused within the budget", a)
		}
	}
	for _, a := range []string{"127.0.0.3", "::1", "::ffff:127.1.2.3", "[::1]"} {
		if ok, _, _ := l.allow(bg, a); ok {
			t.Errorf("%s got a budget of its own", a)
		}
	}
	if ok, _, _ := l.allow(bg, "192.0.2.7"); !ok {
		t.Error("another address shares the loopback budget")
	}
	if ok, _, _ := l.allow(bg, "::ffff:192.0.2.7"); !ok {
		t.Error("an IPv4-mapped address should count as its IPv4 form (one left of three)")
	}
}
