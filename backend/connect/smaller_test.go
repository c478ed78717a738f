package connect

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/tools"
)

// The smaller review findings, one subtest each.
func TestReviewSmallerFindings(t *testing.T) {
	e := newEnv(t)
	base := e.srv.BaseURL()

	t.Run("a request without a token gets a challenge without error=", func(t *testing.T) {
		resp, _ := e.rpc(base, "", "", "tools/call", map[string]any{"name": "read_note", "arguments": map[string]any{}})
		h := resp.Header.Get("WWW-Authenticate")
		if resp.StatusCode != 401 || strings.Contains(h, "error=") || !strings.Contains(h, `resource_metadata="`) {
			t.Fatalf("no token: %d %q", resp.StatusCode, h)
		}
		resp, _ = e.rpc(base, "osfa_forged", "", "tools/call", map[string]any{"name": "read_note", "arguments": map[string]any{}})
		if h := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != 401 || !strings.Contains(h, `error="invalid_token"`) {
			t.Fatalf("bad token: %d %q", resp.StatusCode, h)
		}
	})

	t.Run("initialize advertises only what a stateless JSON server delivers", func(t *testing.T) {
		_, out := e.rpc(base, "", "", "initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
			"clientInfo": map[string]any{"name": "curl", "version": "1"}})
		caps, _ := json.Marshal(out["result"].(map[string]any)["capabilities"])
		if string(caps) != `{"tools":{}}` {
			t.Fatalf("capabilities %s, want {\"tools\":{}}", caps)
		}
	})

	t.Run("a 10 MB token request is too large, not the wrong type", func(t *testing.T) {
		body := "grant_type=refresh_token&refresh_token=" + strings.Repeat("x", 10<<20)
		resp, err := http.Post(base+tokenPath, "application/x-www-form-urlencoded", strings.NewReader(body))
		must(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(b), "too large") || strings.Contains(string(b), "x-www-form-urlencoded") {
			t.Fatalf("10 MB token request: %d %s", resp.StatusCode, b)
		}
	})

	t.Run("scopes without tools are not offered", func(t *testing.T) {
		for _, u := range []string{base + prmPath + ResourcePath, base + asmPath} {
			resp, err := http.Get(u)
			must(t, err)
			var doc map[string]any
			json.NewDecoder(resp.Body).Decode(&doc)
			resp.Body.Close()
			got, _ := json.Marshal(doc["scopes_supported"])
			if string(got) != `["osfoundry:read","osfoundry:write"]` {
				t.Fatalf("%s scopes_supported %s", u, got)
			}
		}
		client := e.register("http://127.0.0.1:9/cb")
		_, ch := pkcePair("z")
		resp, err := noFollow.Get(e.authURL(authParams{client: client, redirect: "http://127.0.0.1:9/cb", challenge: ch, scope: tools.ScopeModels}))
		must(t, err)
		resp.Body.Close()
		loc, _ := url.Parse(resp.Header.Get("Location"))
		if loc == nil || loc.Query().Get("error") != "invalid_scope" {
			t.Fatalf("asking for %s: %d %s", tools.ScopeModels, resp.StatusCode, resp.Header.Get("Location"))
		}
	})

	t.Run("error bodies name no Go types", func(t *testing.T) {
		for _, c := range []struct{ path, ctype, body string }{
			{registerPath, "application/json", `{"redirect_uris":"http://127.0.0.1:9/cb"}`},
			{registerPath, "application/json", `[1,2]`},
			{ResourcePath, "application/json", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":"x"}`},
			{ResourcePath, "application/json", `{"jsonrpc":"2.0","id":{},"method":"tools/list"}`},
			{ResourcePath, "application/json", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_granted_resources","arguments":"x"}}`},
		} {
			req, _ := http.NewRequest(http.MethodPost, base+c.path, strings.NewReader(c.body))
			req.Header.Set("Content-Type", c.ctype)
			req.Header.Set("Accept", "application/json, text/event-stream")
			resp, err := http.DefaultClient.Do(req)
			must(t, err)
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			for _, leak := range []string{"Go value", "Go struct", "json: ", "oauthex.", "jsonrpc2.", "mcp.", "wireDecode"} {
				if strings.Contains(string(b), leak) {
					t.Errorf("%s %s: %d %s names %q", c.path, c.body, resp.StatusCode, b, leak)
				}
			}
			if resp.StatusCode != 400 {
				t.Errorf("%s %s: %d, want 400", c.path, c.body, resp.StatusCode)
			}
		}
	})

	t.Run("a revoked token family is not called a revoked connection", func(t *testing.T) {
		g := e.login(e.browser(true), "", false)
		rotate := func(rt string) (int, map[string]any) {
			return e.tokenReq(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {rt}, "client_id": {g.client}})
		}
		_, out := rotate(g.refresh)
		next, _ := out["refresh_token"].(string)
		rotate(g.refresh) // reuse: the family is revoked
		st, out := rotate(next)
		desc, _ := out["error_description"].(string)
		if st != 400 || strings.Contains(desc, "connection was revoked") || !strings.Contains(desc, "sign-in") {
			t.Fatalf("family revoked: %d %q", st, desc)
		}
		cs, _ := e.svc.Connections(bg)
		if !slices.ContainsFunc(cs, func(c Connection) bool { return c.Status == StatusConnected }) {
			t.Fatal("the connection itself was revoked")
		}
	})
}
