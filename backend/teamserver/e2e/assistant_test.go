package e2e_test

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/osfoundry/desktop/backend/connect"
)

// assistant is a hand-written MCP client over plain HTTP, for checks the
// SDKs hide: which replica answers which step, refresh rotation, wrong
// tokens, and many concurrent writers.
type assistant struct {
	c               *cluster
	t               *testing.T
	clientID        string
	redirect        string
	access, refresh string
	conn            string // the connection's id
	code, verifier  string // the redeemed code, for replays
	pin             func(string) string
	ids             atomic.Int64
}

const assistantRedirect = "http://127.0.0.1:9/callback"

// post sends a form or JSON body to path, pinned to replica to ("" takes turns).
func (c *cluster) send(to, method, path, ctype string, body []byte, hdr ...string) (int, http.Header, []byte) {
	c.t.Helper()
	req, _ := http.NewRequest(method, c.lb.URL+path, bytes.NewReader(body))
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := c.client(func(string) string { return to }, nil).Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, data
}

func (c *cluster) token(to string, form url.Values) (int, map[string]any) {
	c.t.Helper()
	code, _, body := c.send(to, "POST", "/oauth/token", "application/x-www-form-urlencoded", []byte(form.Encode()))
	var out map[string]any
	json.Unmarshal(body, &out)
	return code, out
}

func pkce() (verifier, challenge string) {
	b := make([]byte, 32)
	rand.Read(b)
	verifier = base64.RawURLEncoding.EncodeToString(b)
	h := sha256.Sum256([]byte(verifier))
	return verifier, base64.RawURLEncoding.EncodeToString(h[:])
}

// register makes a client by dynamic registration on replica to.
func (c *cluster) register(to string) string {
	c.t.Helper()
	body, _ := json.Marshal(map[string]any{"client_name": "e2e assistant", "redirect_uris": []string{assistantRedirect},
		"grant_types": []string{"authorization_code", "refresh_token"}, "token_endpoint_auth_method": "none"})
	code, _, out := c.send(to, "POST", "/oauth/register", "application/json", body)
	var reg struct {
		ClientID string `json:"client_id"`
	}
	if json.Unmarshal(out, &reg); code != http.StatusCreated || reg.ClientID == "" {
		c.t.Fatalf("registration on %s: %d %s", to, code, out)
	}
	return reg.ClientID
}

// authURL is an authorization request for client with PKCE.
func (c *cluster) authURL(client, challenge, scope string) string {
	return c.lb.URL + "/oauth/authorize?" + url.Values{"response_type": {"code"}, "client_id": {client},
		"redirect_uri": {assistantRedirect}, "code_challenge": {challenge}, "code_challenge_method": {"S256"},
		"state": {"st-1"}, "resource": {c.lb.URL + "/mcp"}, "scope": {scope}}.Encode()
}

// connectAs makes a connection named name that opens project A: it
// registers a client (on r2), has user approve it on their browser (the
// consent page on r1), and redeems the code on r2.
func (c *cluster) connectAs(t *testing.T, b *browser, user, name, scope string) *assistant {
	t.Helper()
	pending, err := c.panel.CreateConnection(bg, "Other MCP client", name)
	must(t, err)
	must(t, c.panel.AddProject(bg, pending.ID, "proj-a"))
	return c.approveAs(t, b, user, scope, "Use pending: "+name, pending.ID)
}

// connectNew is an assistant connected as claude.ai's connector is: the
// person picks "Create a new connection" on the consent page, so it opens
// no project until they give it one on their page.
func (c *cluster) connectNew(t *testing.T, b *browser, user, scope string) *assistant {
	t.Helper()
	a := c.approveAs(t, b, user, scope, "", "")
	var mine []connect.Connection
	if code := b.api("GET", "/api/connections", nil, &mine); code != http.StatusOK || len(mine) == 0 || len(mine[0].Projects) != 0 {
		t.Fatalf("%s's connections after connecting: %d %+v", user, code, mine)
	}
	a.conn = mine[0].ID // newest first
	return a
}

// approveAs registers a client (on r2), has user approve it on their
// browser with the consent page's choice (the consent page on r1), and
// redeems the code on r2.
func (c *cluster) approveAs(t *testing.T, b *browser, user, scope, choice, conn string) *assistant {
	t.Helper()
	a := &assistant{c: c, t: t, redirect: assistantRedirect, conn: conn}
	a.clientID = c.register("r2")
	verifier, challenge := pkce()
	loc, err := b.approve(c.authURL(a.clientID, challenge, scope), user, choice)
	must(t, err)
	q := loc.Query()
	if q.Get("state") != "st-1" || q.Get("iss") != c.lb.URL || q.Get("code") == "" {
		t.Fatalf("the consent's redirect: %s", loc)
	}
	code, out := c.token("r2", url.Values{"grant_type": {"authorization_code"}, "client_id": {a.clientID}, "code": {q.Get("code")},
		"code_verifier": {verifier}, "redirect_uri": {assistantRedirect}, "resource": {c.lb.URL + "/mcp"}})
	if code != http.StatusOK {
		t.Fatalf("redeeming the code on the other replica: %d %v", code, out)
	}
	a.code, a.verifier = q.Get("code"), verifier
	a.access, _ = out["access_token"].(string)
	a.refresh, _ = out["refresh_token"].(string)
	if a.access == "" || a.refresh == "" {
		t.Fatalf("token answer: %v", out)
	}
	return a
}

// rpc posts one JSON-RPC request to /mcp with token, on replica to.
func (a *assistant) rpc(to, token, method string, params any) (int, http.Header, []byte) {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": a.ids.Add(1), "method": method, "params": params})
	hdr := []string{"Accept", "application/json, text/event-stream", "MCP-Protocol-Version", "2025-06-18"}
	if token != "" {
		hdr = append(hdr, "Authorization", "Bearer "+token)
	}
	return a.c.send(to, "POST", "/mcp", "application/json", body, hdr...)
}

// result is one tool call's answer text and isError; an HTTP refusal is
// "HTTP <status>".
func (a *assistant) result(to, tool string, args any) (string, bool) {
	a.t.Helper()
	status, _, body := a.rpc(to, a.access, "tools/call", map[string]any{"name": tool, "arguments": args})
	if status != http.StatusOK {
		return fmt.Sprintf("HTTP %d %s", status, strings.TrimSpace(string(body))), true
	}
	var r struct {
		Result struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
			IsError bool `json:"isError"`
		} `json:"result"`
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		a.t.Fatalf("%s: unreadable answer %s", tool, body)
	}
	if r.Error != nil {
		return fmt.Sprintf("RPC %d %s", r.Error.Code, r.Error.Message), true
	}
	if len(r.Result.Content) == 0 {
		return "", r.Result.IsError
	}
	return r.Result.Content[0].Text, r.Result.IsError
}

// call is a tool call's outcome line, on the replica whose turn it is.
func (a *assistant) call(tool string, args map[string]any) string {
	a.t.Helper()
	text, isErr := a.result("", tool, args)
	if strings.HasPrefix(text, "HTTP ") || strings.HasPrefix(text, "RPC ") {
		return text
	}
	return outcome(text, isErr)
}
