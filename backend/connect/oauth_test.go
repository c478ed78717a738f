package connect

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

var bg = context.Background()

func TestTokenEndpointRefusals(t *testing.T) {
	cases := []struct {
		name  string
		setup func(e *env, g *grantFlow) url.Values
		want  string
	}{
		{"wrong PKCE verifier", func(e *env, g *grantFlow) url.Values {
			f := g.exchange()
			f.Set("code_verifier", strings.Repeat("w", 64))
			return f
		}, "invalid_grant"},
		{"verifier too short", func(e *env, g *grantFlow) url.Values {
			f := g.exchange()
			f.Set("code_verifier", "short")
			return f
		}, "invalid_grant"},
		{"expired code", func(e *env, g *grantFlow) url.Values {
			e.clock.Add(CodeTTL + time.Second)
			return g.exchange()
		}, "invalid_grant"},
		{"redirect_uri mismatch", func(e *env, g *grantFlow) url.Values {
			f := g.exchange()
			f.Set("redirect_uri", "http://127.0.0.1:9/other")
			return f
		}, "invalid_grant"},
		{"another client's code", func(e *env, g *grantFlow) url.Values {
			f := g.exchange()
			f.Set("client_id", e.register("http://127.0.0.1:9/cb"))
			return f
		}, "invalid_grant"},
		{"token for another resource", func(e *env, g *grantFlow) url.Values {
			f := g.exchange()
			f.Set("resource", "https://elsewhere.example/mcp")
			return f
		}, "invalid_target"},
		{"unknown client", func(e *env, g *grantFlow) url.Values {
			f := g.exchange()
			f.Set("client_id", "client_nope")
			return f
		}, "invalid_client"},
		{"no verifier", func(e *env, g *grantFlow) url.Values {
			f := g.exchange()
			f.Del("code_verifier")
			return f
		}, "invalid_request"},
		{"password grant", func(e *env, g *grantFlow) url.Values {
			f := g.exchange()
			f.Set("grant_type", "password")
			return f
		}, "unsupported_grant_type"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			g := e.login(e.browser(true), "", true)
			status, out := e.tokenReq(c.setup(e, g))
			if status == http.StatusOK || out["error"] != c.want {
				t.Fatalf("got %d %v, want error %s", status, out, c.want)
			}
			// A refused exchange burns the code: the right request now fails too.
			if c.want != "invalid_client" && c.want != "invalid_request" && c.want != "unsupported_grant_type" {
				if status, out := e.tokenReq(g.exchange()); status == http.StatusOK {
					t.Fatalf("code still usable after a refused exchange: %v", out)
				}
			}
		})
	}
}

func TestCodeReuseRevokesTokens(t *testing.T) {
	e := newEnv(t)
	g := e.login(e.browser(true), "", false)
	e.svc.AddProject(bg, e.onlyConnection().ID, "proj-a")
	if _, got := e.callTool(g.access, "read_note", map[string]any{"note_id": "note-a1"}); got != "OK" {
		t.Fatalf("first token: %s", got)
	}
	status, out := e.tokenReq(g.exchange())
	if status != http.StatusBadRequest || out["error"] != "invalid_grant" {
		t.Fatalf("code reuse: %d %v", status, out)
	}
	if status, _ := e.callTool(g.access, "read_note", map[string]any{"note_id": "note-a1"}); status != http.StatusUnauthorized {
		t.Fatalf("access token from a reused code still works: %d", status)
	}
}

func TestRefreshRotationAndReuse(t *testing.T) {
	e := newEnv(t)
	g := e.login(e.browser(true), "", false)
	refresh := func(rt string) (int, map[string]any) {
		return e.tokenReq(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {rt}, "client_id": {g.client}})
	}
	status, out := refresh(g.refresh)
	if status != http.StatusOK || out["refresh_token"] == g.refresh {
		t.Fatalf("first refresh: %d %v", status, out)
	}
	newAccess, newRefresh := out["access_token"].(string), out["refresh_token"].(string)
	if st, _ := e.callTool(newAccess, "list_granted_resources", nil); st != http.StatusOK {
		t.Fatalf("rotated access token refused: %d", st)
	}
	// The old refresh token comes back: someone holds a copy. The whole family goes.
	if status, out := refresh(g.refresh); status == http.StatusOK || out["error"] != "invalid_grant" {
		t.Fatalf("refresh reuse: %d %v", status, out)
	}
	if status, _ := refresh(newRefresh); status == http.StatusOK {
		t.Fatal("the rotated refresh token survived a reuse of its predecessor")
	}
	if st, _ := e.callTool(newAccess, "list_granted_resources", nil); st != http.StatusUnauthorized {
		t.Fatalf("access token of a revoked family: %d", st)
	}
	// A refresh cannot widen scopes.
	g2 := e.login(e.browser(true), "osfoundry:read", false)
	st, out := e.tokenReq(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {g2.refresh}, "client_id": {g2.client}, "scope": {"osfoundry:read osfoundry:write"}})
	if st == http.StatusOK || out["error"] != "invalid_scope" {
		t.Fatalf("scope widening on refresh: %d %v", st, out)
	}
}

func TestRevokedConnectionCannotRefresh(t *testing.T) {
	e := newEnv(t)
	g := e.login(e.browser(true), "", false)
	must(t, e.svc.Revoke(bg, e.onlyConnection().ID))
	st, out := e.tokenReq(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {g.refresh}, "client_id": {g.client}})
	if st == http.StatusOK || out["error"] != "invalid_grant" {
		t.Fatalf("refresh after revoke: %d %v", st, out)
	}
	if _, got := e.callTool(g.access, "list_granted_resources", nil); got != "DENY connection_revoked" {
		t.Fatalf("call after revoke: %s", got)
	}
	if c := e.onlyConnection(); c.StatusText != TextRevoked {
		t.Fatalf("status text %q", c.StatusText)
	}
}

func TestAuthorizeRefusals(t *testing.T) {
	e := newEnv(t)
	b := e.browser(true)
	good := e.register("https://claude.example/api/callback", "http://127.0.0.1:5555/cb")
	_, ch := pkcePair("x")
	cases := []struct {
		name       string
		p          authParams
		wantStatus int
		wantError  string // error= on the redirect; "" with 400 = error page, no redirect
	}{
		{"unknown client", authParams{client: "client_nope", redirect: "https://evil.example/cb", challenge: ch}, 400, ""},
		{"unregistered redirect", authParams{client: good, redirect: "https://evil.example/cb", challenge: ch}, 400, ""},
		{"registered host, other path", authParams{client: good, redirect: "https://claude.example/api/callback/../../evil", challenge: ch}, 400, ""},
		{"userinfo trick", authParams{client: good, redirect: "http://127.0.0.1@evil.example:5555/cb", challenge: ch}, 400, ""},
		{"loopback other path", authParams{client: good, redirect: "http://127.0.0.1:7777/evil", challenge: ch}, 400, ""},
		{"plain PKCE", authParams{client: good, redirect: "https://claude.example/api/callback", challenge: ch, method: "plain"}, 303, "invalid_request"},
		{"no PKCE", authParams{client: good, redirect: "https://claude.example/api/callback", method: "S256"}, 303, "invalid_request"},
		{"another resource", authParams{client: good, redirect: "https://claude.example/api/callback", challenge: ch, resource: "https://elsewhere.example/mcp"}, 303, "invalid_target"},
		{"unknown scope", authParams{client: good, redirect: "https://claude.example/api/callback", challenge: ch, scope: "admin"}, 303, "invalid_scope"},
		{"loopback any port", authParams{client: good, redirect: "http://127.0.0.1:40123/cb", challenge: ch}, 200, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, page, h := b.get(e.authURL(c.p))
			if status != c.wantStatus {
				t.Fatalf("status %d, want %d: %s", status, c.wantStatus, page)
			}
			loc := h.Get("Location")
			if c.wantError == "" {
				if loc != "" {
					t.Fatalf("redirected to %s; an unverified return address must never be redirected to", loc)
				}
				return
			}
			u, _ := url.Parse(loc)
			if !strings.HasPrefix(loc, "https://claude.example/api/callback?") || u.Query().Get("error") != c.wantError || u.Query().Get("iss") != e.srv.BaseURL() {
				t.Fatalf("redirect %s, want error=%s with iss", loc, c.wantError)
			}
		})
	}
}

func TestRegistration(t *testing.T) {
	e := newEnv(t)
	for _, bad := range []string{"http://evil.example/cb", "https://x.example/cb#frag", "javascript:alert(1)", "/relative"} {
		resp, err := http.Post(e.srv.BaseURL()+registerPath, "application/json", strings.NewReader(`{"redirect_uris":["`+bad+`"]}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("registering %s: %s, want 400", bad, resp.Status)
		}
	}
	// Unknown metadata is ignored and the redirect URIs are echoed (the
	// TypeScript client requires it).
	id := e.register("http://localhost:8976/callback")
	c, err := e.svc.client(bg, id)
	if err != nil || c.Name != "Codex" || c.RedirectURIs[0] != "http://localhost:8976/callback" {
		t.Fatalf("client %+v %v", c, err)
	}
}
