package connect

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// A hand-driven OAuth client for negative tests, one request at a time.

func (e *env) register(redirects ...string) string {
	e.t.Helper()
	body, _ := json.Marshal(map[string]any{"client_name": "Codex", "redirect_uris": redirects, "x-unknown": []int{1}})
	resp, err := http.Post(e.srv.BaseURL()+registerPath, "application/json", bytes.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	if resp.StatusCode != http.StatusCreated {
		e.t.Fatalf("register: %s %v", resp.Status, out)
	}
	return out["client_id"].(string)
}

func pkcePair(seed string) (verifier, challenge string) {
	verifier = strings.Repeat(seed, 64)[:64]
	sum := sha256.Sum256([]byte(verifier))
	return verifier, base64.RawURLEncoding.EncodeToString(sum[:])
}

type authParams struct {
	client, redirect, challenge, method, scope, resource string
}

func (e *env) authURL(p authParams) string {
	q := url.Values{"response_type": {"code"}, "client_id": {p.client}, "redirect_uri": {p.redirect},
		"code_challenge": {p.challenge}, "code_challenge_method": {p.method}, "state": {"st-1"}}
	if p.method == "" {
		q.Set("code_challenge_method", "S256")
	}
	if p.scope != "" {
		q.Set("scope", p.scope)
	}
	if p.resource != "" {
		q.Set("resource", p.resource)
	}
	return e.srv.BaseURL() + authorizePath + "?" + q.Encode()
}

func (e *env) tokenReq(form url.Values) (int, map[string]any) {
	e.t.Helper()
	resp, err := http.PostForm(e.srv.BaseURL()+tokenPath, form)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// grantFlow is one completed sign-in by hand.
type grantFlow struct {
	client, redirect, verifier, code string
	access, refresh                  string
}

// login registers, consents as the owner (new connection in ws-acme) and
// redeems the code, unless stopAtCode.
func (e *env) login(b *browser, scope string, stopAtCode bool) *grantFlow {
	e.t.Helper()
	g := &grantFlow{redirect: "http://127.0.0.1:9/cb"}
	g.client = e.register(g.redirect)
	var challenge string
	g.verifier, challenge = pkcePair("v")
	loc, err := b.approve(e.authURL(authParams{client: g.client, redirect: g.redirect, challenge: challenge, scope: scope}), "")
	if err != nil {
		e.t.Fatal(err)
	}
	if loc.Query().Get("iss") != e.srv.BaseURL() || loc.Query().Get("state") != "st-1" {
		e.t.Fatalf("authorization response %s lacks iss/state", loc)
	}
	g.code = loc.Query().Get("code")
	if stopAtCode {
		return g
	}
	status, out := e.tokenReq(g.exchange())
	if status != http.StatusOK {
		e.t.Fatalf("token: %d %v", status, out)
	}
	g.access, g.refresh = out["access_token"].(string), out["refresh_token"].(string)
	return g
}

func (g *grantFlow) exchange() url.Values {
	return url.Values{"grant_type": {"authorization_code"}, "code": {g.code}, "client_id": {g.client},
		"redirect_uri": {g.redirect}, "code_verifier": {g.verifier}}
}

// rpc posts one JSON-RPC request to the endpoint.
func (e *env) rpc(base, token, origin, method string, params any) (*http.Response, map[string]any) {
	e.t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "method": method, "params": params})
	req, _ := http.NewRequest(http.MethodPost, base+ResourcePath, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-06-18")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	json.Unmarshal(raw, &out)
	return resp, out
}

func (e *env) callTool(token, tool string, args map[string]any) (int, string) {
	resp, out := e.rpc(e.srv.BaseURL(), token, "", "tools/call", map[string]any{"name": tool, "arguments": args})
	res, _ := out["result"].(map[string]any)
	if res == nil {
		return resp.StatusCode, "no result"
	}
	content, _ := res["content"].([]any)
	text := ""
	if len(content) > 0 {
		text, _ = content[0].(map[string]any)["text"].(string)
	}
	if res["isError"] == true {
		code, _, _ := strings.Cut(text, ":")
		return resp.StatusCode, "DENY " + code
	}
	return resp.StatusCode, "OK"
}

// connectionOf finds the connection a fresh login created.
func (e *env) onlyConnection() Connection {
	cs, err := e.svc.Connections(bg)
	if err != nil || len(cs) != 1 {
		e.t.Fatalf("connections: %v %v", cs, err)
	}
	return cs[0]
}

func (e *env) registerNamed(name string, redirects ...string) string {
	e.t.Helper()
	body, _ := json.Marshal(map[string]any{"client_name": name, "redirect_uris": redirects})
	resp, err := http.Post(e.srv.BaseURL()+registerPath, "application/json", bytes.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	if resp.StatusCode != http.StatusCreated {
		e.t.Fatalf("register: %s %v", resp.Status, out)
	}
	return out["client_id"].(string)
}
