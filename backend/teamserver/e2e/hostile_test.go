package e2e_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// What the desktop's endpoint refuses (backend/connect's hostile and
// limits tests) is refused the same way through TLS, haproxy and either
// replica, and never becomes a 500.
func hostile(t *testing.T, c *cluster) {
	a := c.connectAs(t, c.bob, "bob", "Hostile", "osfoundry:read osfoundry:write")
	get := func(to, u string) (int, string, string) {
		req, _ := http.NewRequest("GET", u, nil)
		resp, err := c.client(func(string) string { return to }, nil).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Location"), string(body)
	}
	_, challenge := pkce()
	authorize := func(over url.Values) string {
		v := url.Values{"response_type": {"code"}, "client_id": {a.clientID}, "redirect_uri": {assistantRedirect},
			"code_challenge": {challenge}, "code_challenge_method": {"S256"}, "state": {"s"}}
		for k, vs := range over {
			v[k] = vs
		}
		return c.lb.URL + "/oauth/authorize?" + v.Encode()
	}
	for _, to := range []string{"r1", "r2"} {
		for _, bad := range []string{"%00", "%FF%FE", "client_%00x"} {
			if code, _, page := get(to, c.lb.URL+"/oauth/authorize?response_type=code&client_id="+bad); code != http.StatusBadRequest || !strings.Contains(page, "Unknown assistant") {
				t.Errorf("%s: authorize for client %s: %d", to, bad, code)
			}
			if code, _, _ := get(to, c.lb.URL+"/oauth/authorize?request="+bad); code != http.StatusBadRequest {
				t.Errorf("%s: continuing request %s: %d, want 400", to, bad, code)
			}
			id, _ := url.QueryUnescape(bad)
			if code, out := c.token(to, url.Values{"grant_type": {"authorization_code"}, "client_id": {id}, "code": {"x"}, "code_verifier": {"y"}}); code != http.StatusUnauthorized || out["error"] != "invalid_client" {
				t.Errorf("%s: token for client %s: %d %v", to, bad, code, out)
			}
		}
	}
	redirected := []struct {
		name  string
		over  url.Values
		error string
	}{
		{"another resource", url.Values{"resource": {"https://evil.example/mcp"}}, "invalid_target"},
		{"plain PKCE", url.Values{"code_challenge_method": {"plain"}}, "invalid_request"},
		{"no PKCE", url.Values{"code_challenge": {""}}, "invalid_request"},
		{"an unknown scope", url.Values{"scope": {"osfoundry:admin"}}, "invalid_scope"},
		{"an implicit grant", url.Values{"response_type": {"token"}}, "unsupported_response_type"},
	}
	for _, r := range redirected {
		code, loc, _ := get("r2", authorize(r.over))
		u, _ := url.Parse(loc)
		if code != http.StatusSeeOther || !strings.HasPrefix(loc, assistantRedirect) || u.Query().Get("error") != r.error {
			t.Errorf("authorize with %s: %d to %q, want %s", r.name, code, loc, r.error)
		}
	}
	for name, over := range map[string]url.Values{
		"a return address never registered": {"redirect_uri": {"https://evil.example/cb"}},
		"a state over 2 KB":                 {"state": {strings.Repeat("s", 3000)}},
	} {
		if code, loc, _ := get("r1", authorize(over)); code != http.StatusBadRequest || loc != "" {
			t.Errorf("authorize with %s: %d to %q, want 400 and no redirect", name, code, loc)
		}
	}
	for name, body := range map[string]string{
		"a return address with a user part": `{"client_name":"x","redirect_uris":["http://user@127.0.0.1/cb"]}`,
		"a wildcard return address":         `{"client_name":"x","redirect_uris":["http://*.example.com/cb"]}`,
		"a body over 16 KB":                 `{"client_name":"` + strings.Repeat("x", 17<<10) + `","redirect_uris":["http://127.0.0.1/cb"]}`,
	} {
		if code, _, out := c.send("r1", "POST", "/oauth/register", "application/json", []byte(body)); code != http.StatusBadRequest {
			t.Errorf("registering %s: %d %s", name, code, out)
		}
	}

	// The MCP endpoint itself.
	if code, _, _ := c.send("r1", "GET", "/mcp", "", nil, "Authorization", "Bearer "+a.access); code != http.StatusMethodNotAllowed {
		t.Errorf("GET /mcp: %d, want 405", code)
	}
	for name, body := range map[string]string{
		"a key twice":             `{"jsonrpc":"2.0","id":1,"method":"tools/list","method":"tools/call"}`,
		"a key twice, other case": `{"jsonrpc":"2.0","id":1,"method":"tools/list","Method":"tools/call"}`,
		"data after the object":   `{"jsonrpc":"2.0","id":1,"method":"tools/list"} {}`,
		"params not an object":    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[1]}`,
	} {
		if code, _, out := c.send("r2", "POST", "/mcp", "application/json", []byte(body), "Accept", "application/json, text/event-stream",
			"Authorization", "Bearer "+a.access); code != http.StatusBadRequest {
			t.Errorf("an MCP body with %s: %d %s", name, code, out)
		}
	}
	req, _ := http.NewRequest("POST", c.lb.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	req.Host = "evil.example"
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.client(nil, nil).Do(req)
	must(t, err)
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("a request for Host evil.example: %d, want 403", resp.StatusCode)
	}

	// Tool arguments.
	for name, args := range map[string]map[string]any{
		"a NUL in an id":       {"note_id": "note-a1\x00"},
		"invalid UTF-8":        {"note_id": "note-\xff"},
		"an argument it lacks": {"note_id": "note-a1", "sneaky": true},
	} {
		text, isErr := a.result("r1", "list_note_tabs", args)
		if !isErr || strings.HasPrefix(text, "HTTP 5") {
			t.Errorf("list_note_tabs with %s: %s (isError %v)", name, text, isErr)
		}
	}
	if text, isErr := a.result("r2", "request_session_run", map[string]any{}); !isErr {
		t.Errorf("a run with no project: %s", text)
	}
	status, _, body := a.rpc("r1", a.access, "tools/list", map[string]any{})
	var list struct {
		Result struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		} `json:"result"`
	}
	json.Unmarshal(body, &list)
	if status != http.StatusOK || len(list.Result.Tools) == 0 {
		t.Fatalf("tools/list: %d %s", status, body)
	}
	// Runs go to desktops: the one run tool queues a run for them; the
	// desktop's graph runs are not offered here.
	for _, tl := range list.Result.Tools {
		if strings.Contains(tl.Name, "run") && strings.Contains(tl.Name, "session") && tl.Name != "request_session_run" {
			t.Errorf("tools/list offers %s: the team server queues plain runs only", tl.Name)
		}
	}
}
