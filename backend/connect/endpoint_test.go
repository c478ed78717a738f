package connect

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

func TestDiscoveryDocuments(t *testing.T) {
	e := newEnv(t)
	base := e.srv.BaseURL()
	prmURL := base + "/.well-known/oauth-protected-resource/mcp"
	get := func(u string) (int, map[string]any) {
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out
	}
	for _, u := range []string{prmURL, base + "/.well-known/oauth-protected-resource"} {
		st, doc := get(u)
		if st != 200 || doc["resource"] != base+"/mcp" || doc["authorization_servers"].([]any)[0] != base {
			t.Fatalf("%s: %d %v", u, st, doc)
		}
		// run and models have no tools without a runner: not offered.
		want := []any{"osfoundry:read", "osfoundry:write"}
		if !slices.Equal(doc["scopes_supported"].([]any), want) {
			t.Fatalf("scopes_supported %v", doc["scopes_supported"])
		}
	}
	if st, _ := get(base + "/mcp/.well-known/oauth-protected-resource"); st != 404 {
		t.Fatalf("<resource>/.well-known/oauth-protected-resource: %d, want 404", st)
	}
	st, as := get(base + "/.well-known/oauth-authorization-server")
	checks := map[string]any{
		"issuer": base, "authorization_endpoint": base + "/oauth/authorize", "token_endpoint": base + "/oauth/token",
		"registration_endpoint": base + "/oauth/register", "authorization_response_iss_parameter_supported": true,
	}
	for k, v := range checks {
		if as[k] != v {
			t.Errorf("AS metadata %s = %v, want %v", k, as[k], v)
		}
	}
	lists := map[string][]any{"grant_types_supported": {"authorization_code", "refresh_token"},
		"token_endpoint_auth_methods_supported": {"none"}, "code_challenge_methods_supported": {"S256"}}
	for k, v := range lists {
		if got, _ := as[k].([]any); !slices.Equal(got, v) {
			t.Errorf("AS metadata %s = %v, want %v", k, as[k], v)
		}
	}
	if _, has := as["jwks_uri"]; has || st != 200 {
		t.Errorf("AS metadata: %d, jwks_uri present: %v", st, as["jwks_uri"])
	}
}

func TestUnauthenticatedCallChallenge(t *testing.T) {
	e := newEnv(t)
	base := e.srv.BaseURL()
	resp, out := e.rpc(base, "", "", "tools/call", map[string]any{"name": "list_project_resources", "arguments": map[string]any{}})
	// No token at all: no error code (RFC 6750 §3.1).
	wantHeader := `Bearer resource_metadata="` + base + `/.well-known/oauth-protected-resource/mcp"`
	if resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != wantHeader {
		t.Fatalf("401: %d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	res := out["result"].(map[string]any)
	text := res["content"].([]any)[0].(map[string]any)["text"]
	meta := res["_meta"].(map[string]any)["mcp/www_authenticate"].([]any)
	if res["isError"] != true || text != "Authentication required" || meta[0] != wantHeader || out["id"] != float64(7) {
		t.Fatalf("401 body: %v", out)
	}
	// A bad token gets the same challenge.
	if resp, _ := e.rpc(base, "osfa_forged", "", "tools/call", map[string]any{"name": "read_note"}); resp.StatusCode != 401 {
		t.Fatalf("forged token: %d", resp.StatusCode)
	}
	// initialize and tools/list are public.
	resp, out = e.rpc(base, "", "", "initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "curl", "version": "1"}})
	init, _ := out["result"].(map[string]any)
	if resp.StatusCode != 200 || init["instructions"] != Instructions || init["serverInfo"].(map[string]any)["name"] != "osfoundry" {
		t.Fatalf("initialize: %d %v", resp.StatusCode, out)
	}
	resp, out = e.rpc(base, "", "", "tools/list", map[string]any{})
	if resp.StatusCode != 200 {
		t.Fatalf("tools/list: %d", resp.StatusCode)
	}
	byName := map[string]map[string]any{}
	for _, tl := range out["result"].(map[string]any)["tools"].([]any) {
		m := tl.(map[string]any)
		byName[m["name"].(string)] = m
	}
	edit, read := byName["edit_note"], byName["read_note"]
	ea, ra := edit["annotations"].(map[string]any), read["annotations"].(map[string]any)
	if ea["readOnlyHint"] != false || ea["destructiveHint"] != true || ea["openWorldHint"] != false || ra["readOnlyHint"] != true {
		t.Fatalf("annotations: edit %v read %v", ea, ra)
	}
	ss, _ := json.Marshal(edit["_meta"].(map[string]any)["securitySchemes"])
	if string(ss) != `[{"scopes":["osfoundry:write"],"type":"oauth2"}]` {
		t.Fatalf("securitySchemes %s", ss)
	}
	// Where the articles show it: a top-level field of each tool.
	for name, tl := range byName {
		top, _ := json.Marshal(tl["securitySchemes"])
		want := `[{"scopes":["osfoundry:read"],"type":"oauth2"}]`
		if tl["annotations"].(map[string]any)["readOnlyHint"] != true {
			want = string(ss)
		}
		if name == "edit_note" && string(top) != want || name == "read_note" && string(top) != want || tl["securitySchemes"] == nil {
			t.Errorf("%s: top-level securitySchemes %s, want %s", name, top, want)
		}
	}
	for _, name := range []string{"list_granted_resources", "list_project_resources", "link_current_chat", "propose_change_set"} {
		if byName[name] == nil {
			t.Errorf("tools/list lacks %s", name)
		}
	}
	if byName["request_session_run"] != nil {
		t.Error("run tools listed without a runner")
	}
}

func TestTransportGuards(t *testing.T) {
	e := newEnv(t)
	base := e.srv.BaseURL()
	resp, err := http.Get(base + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("GET: %d, want 405", resp.StatusCode)
	}
	if resp, _ := e.rpc(base, "", "https://evil.example", "tools/list", map[string]any{}); resp.StatusCode != 403 {
		t.Fatalf("foreign Origin: %d, want 403", resp.StatusCode)
	}
	if resp, _ := e.rpc(base, "", base, "tools/list", map[string]any{}); resp.StatusCode != 200 {
		t.Fatalf("own Origin: %d", resp.StatusCode)
	}
	req, _ := http.NewRequest(http.MethodGet, base+"/.well-known/oauth-authorization-server", nil)
	req.Host = "evil.example"
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 403 {
		t.Fatalf("foreign Host (DNS rebinding): %d, want 403", resp.StatusCode)
	}
	body := strings.NewReader(`[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_note"}}]`)
	resp, err = http.Post(base+"/mcp", "application/json", body)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Fatalf("batch: %d, want 400", resp.StatusCode)
	}
}

func TestInsufficientScopeIs403(t *testing.T) {
	e := newEnv(t)
	g := e.login(e.browser(true), "osfoundry:read", false)
	conn := e.onlyConnection()
	must(t, e.svc.AddProject(bg, conn.ID, "proj-a"))
	resp, out := e.rpc(e.srv.BaseURL(), g.access, "", "tools/call", map[string]any{"name": "edit_note", "arguments": map[string]any{"note_id": "note-a1", "text": "x"}})
	h := resp.Header.Get("WWW-Authenticate")
	if resp.StatusCode != 403 || !strings.Contains(h, `error="insufficient_scope"`) || !strings.Contains(h, `scope="osfoundry:read osfoundry:write"`) {
		t.Fatalf("403: %d %q %v", resp.StatusCode, h, out)
	}
	// A token for this server reached through another name is a token for
	// another resource.
	other := strings.Replace(e.srv.BaseURL(), "127.0.0.1", "localhost", 1)
	if resp, _ := e.rpc(other, g.access, "", "tools/call", map[string]any{"name": "read_note", "arguments": map[string]any{"note_id": "note-a1"}}); resp.StatusCode != 401 {
		t.Fatalf("token used for another resource: %d, want 401", resp.StatusCode)
	}
}

func TestOwnerSwitchesTakeEffectNextCall(t *testing.T) {
	e := newEnv(t)
	// A non-admin editor approves; their role is what the connection can use.
	editor, err := e.svc.AddUser(bg, "Dana")
	must(t, err)
	must(t, e.svc.SetRole(bg, editor.ID, "ws-acme", "", "editor"))
	b := e.browser(false)
	link, _ := e.srv.SignInURL(bg, editor.ID, 0)
	b.get(link)
	g := e.login(b, "osfoundry:read osfoundry:write", false)
	conn := e.onlyConnection()
	if conn.Approver != editor.ID || conn.StatusText != TextConnected || conn.Workspace != "ws-acme" {
		t.Fatalf("connection %+v", conn)
	}
	must(t, e.svc.AddProject(bg, conn.ID, "proj-a"))
	read := map[string]any{"note_id": "note-a1"}
	write := map[string]any{"note_id": "note-a1", "text": "new"}
	steps := []struct {
		name  string
		owner func()
		tool  string
		args  map[string]any
		want  string
	}{
		{"editor writes", nil, "edit_note", write, "OK"},
		{"other workspace item", nil, "read_note", map[string]any{"note_id": "note-x1"}, "DENY not_found"},
		{"approver downgraded to viewer", func() { must(t, e.svc.SetRole(bg, editor.ID, "ws-acme", "", "viewer")) }, "edit_note", write, "DENY approver_cannot_edit"},
		{"viewer still reads", nil, "read_note", read, "OK"},
		{"approver loses the workspace", func() { must(t, e.svc.SetRole(bg, editor.ID, "ws-acme", "", "")) }, "read_note", read, "DENY approver_cannot_view"},
		{"project role is enough", func() { must(t, e.svc.SetRole(bg, editor.ID, "ws-acme", "proj-a", "editor")) }, "edit_note", write, "OK"},
		{"owner unticks read_note", func() {
			must(t, e.svc.SaveTools(bg, conn.ID, slices.DeleteFunc(e.svc.ToolNames(), func(n string) bool { return n == "read_note" })))
		}, "read_note", read, "DENY tool_disabled"},
		{"other tools still on", nil, "edit_note", write, "OK"},
	}
	for _, s := range steps {
		if s.owner != nil {
			s.owner()
		}
		if _, got := e.callTool(g.access, s.tool, s.args); got != s.want {
			t.Fatalf("%s: got %s, want %s", s.name, got, s.want)
		}
	}
	ts, _ := e.svc.Tools(bg, conn.ID)
	for _, x := range ts {
		if (x.Name == "read_note") == x.Enabled {
			t.Fatalf("tools checklist: %+v", x)
		}
	}
}

func TestConsentProtections(t *testing.T) {
	e := newEnv(t)
	owner := e.browser(true)
	client := e.register("http://127.0.0.1:9/cb")
	_, ch := pkcePair("c")
	authURL := e.authURL(authParams{client: client, redirect: "http://127.0.0.1:9/cb", challenge: ch})
	f, err := owner.openConsent(authURL)
	must(t, err)
	for _, s := range []string{"Connect an agent", "Returns to: <strong>127.0.0.1:9</strong>", "Workspace to connect", "Requested capabilities",
		"Read supported resources in projects you add", "Change supported resources where you have edit access",
		"Create a new connection", "I approve connecting this assistant to <span id=\"ws\">Acme</span>", ">Connect</button>"} {
		if !strings.Contains(f.Page, s) {
			t.Errorf("consent page lacks %q", s)
		}
	}
	form := url.Values{"request": {f.Request}, "csrf": {f.CSRF}, "workspace": {"ws-acme"}, "connection": {"new"}, "approve": {"yes"}, "action": {"connect"}}
	with := func(k, v string) url.Values {
		c := url.Values{}
		for kk, vv := range form {
			c[kk] = vv
		}
		c.Set(k, v)
		return c
	}
	// Another signed-in person's browser, holding the request id and even the token.
	other := e.browser(true)
	cases := []struct {
		name   string
		b      *browser
		origin string
		form   url.Values
		want   int
	}{
		{"wrong CSRF token", owner, "", with("csrf", "forged"), 403},
		{"foreign Origin", owner, "https://evil.example", form, 403},
		{"another session", other, "", form, 403},
		{"not signed in", e.browser(false), "", form, 403},
		{"box not ticked", owner, "", with("approve", ""), 200},
		{"workspace without a role", owner, "", with("workspace", "ws-nope"), 200},
	}
	for _, c := range cases {
		c.b.origin = c.origin
		if c.origin == "" {
			c.b.origin = e.srv.BaseURL()
		}
		if st, loc, body := c.b.submit(c.form); st != c.want || loc != "" {
			t.Fatalf("%s: %d %q %s", c.name, st, loc, body)
		}
	}
	owner.origin = e.srv.BaseURL()
	st, loc, _ := owner.submit(form)
	if st != 303 || !strings.Contains(loc, "code=") {
		t.Fatalf("real consent after refusals: %d %s", st, loc)
	}
	if st, _, _ := owner.submit(form); st != 400 {
		t.Fatalf("consent replay: %d, want 400", st)
	}
	// Cancel sends access_denied back with iss.
	f2, _ := owner.openConsent(authURL)
	_, loc, _ = owner.submit(url.Values{"request": {f2.Request}, "csrf": {f2.CSRF}, "action": {"cancel"}})
	if u, _ := url.Parse(loc); u.Query().Get("error") != "access_denied" || u.Query().Get("iss") != e.srv.BaseURL() {
		t.Fatalf("cancel: %s", loc)
	}
}

func TestSignInContinuesPendingConsent(t *testing.T) {
	e := newEnv(t)
	b := e.browser(false)
	client := e.register("http://127.0.0.1:9/cb")
	_, ch := pkcePair("s")
	st, page, _ := b.get(e.authURL(authParams{client: client, redirect: "http://127.0.0.1:9/cb", challenge: ch}))
	if st != 401 || !strings.Contains(page, "Sign in to approve") {
		t.Fatalf("unsigned authorize: %d %s", st, page)
	}
	link, _ := e.srv.SignInURL(bg, OwnerID, 0)
	resp, err := b.c.Get(link)
	must(t, err)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	next := resp.Header.Get("Location")
	if resp.StatusCode != 303 || !strings.HasPrefix(next, authorizePath+"?request=") {
		t.Fatalf("sign-in: %d %s", resp.StatusCode, next)
	}
	if _, err := b.openConsent(e.srv.BaseURL() + next); err != nil {
		t.Fatal(err)
	}
	// The link is single use.
	if st, _, _ := e.browser(false).get(link); st != 403 {
		t.Fatalf("sign-in link reuse: %d", st)
	}
}
