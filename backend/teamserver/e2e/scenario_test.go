package e2e_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/connect/connecttest"
)

// pinOAuth sends an assistant's registration and token requests to r2;
// the person's browser opens the consent page on r1, so every code is
// issued on one replica and redeemed on the other.
func pinOAuth(path string) string {
	switch path {
	case "/oauth/token", "/oauth/register":
		return "r2"
	}
	return ""
}

// outcome is one scenario line: "OK <value>" or "DENY <code>". A resource
// list shows the Notes it opens (a project also opens its discussion
// channel, which the scenario does not count).
func outcome(text string, isError bool) string {
	if isError {
		code, _, _ := strings.Cut(text, ":")
		return "DENY " + code
	}
	var v struct {
		Resources *[]connect.Resource `json:"resources"`
		Title     string              `json:"title"`
		Status    string              `json:"status"`
	}
	json.Unmarshal([]byte(text), &v)
	switch {
	case v.Resources != nil:
		ids := []string{}
		for _, r := range *v.Resources {
			if r.Kind == "note" {
				ids = append(ids, r.ID)
			}
		}
		out, _ := json.Marshal(ids)
		return "OK " + string(out)
	case v.Title != "":
		return "OK " + v.Title
	case v.Status != "":
		return "OK " + v.Status
	}
	return "OK " + text
}

// noteEdit is an edit_note_tab call on note-a1's current tab and version.
func noteEdit(t *testing.T, c *cluster, text string) map[string]any {
	t.Helper()
	n, err := c.notes.GetNote(bg, "note-a1")
	must(t, err)
	return map[string]any{"note_id": "note-a1", "tab_id": n.Tabs[0].ID, "expected_version": n.Version,
		"idempotency_key": fmt.Sprintf("e2e-%d", time.Now().UnixNano()), "operation": "replace_text", "text": text}
}

func noteText(t *testing.T, c *cluster) string {
	t.Helper()
	n, err := c.notes.GetNote(bg, "note-a1")
	must(t, err)
	return *n.Tabs[0].Text
}

type step struct {
	name  string
	owner func()
	tool  string
	args  func() map[string]any
	want  string
}

func fixed(m map[string]any) func() map[string]any { return func() map[string]any { return m } }

// scenarioSteps is docs/reference.md §6's scenario on the team server:
// the owner's actions go through the panel's Service over the shared
// database, the assistant's calls through the balancer.
func scenarioSteps(t *testing.T, c *cluster, connID, readTool, text string, stepUp func(), declineAt5 func()) []step {
	read := fixed(map[string]any{"note_id": "note-a1"})
	list := fixed(map[string]any{})
	return []step{
		{"1 fresh connection, no project yet", nil, "list_project_resources", list, `OK []`},
		{"2 after owner adds project A", func() { must(t, c.panel.AddProject(bg, connID, "proj-a")) }, "list_project_resources", list, `OK ["note-a1"]`},
		{"3 read note in A", nil, readTool, read, "OK Q3 launch checklist"},
		{"4 read note in B (never added)", nil, readTool, fixed(map[string]any{"note_id": "note-b1"}), "DENY not_in_project"},
		{"5 write with a read-only token", declineAt5, "edit_note_tab", func() map[string]any { return noteEdit(t, c, text) }, "ERR"},
		{"6 write with read+write token", stepUp, "edit_note_tab", func() map[string]any { return noteEdit(t, c, text) }, "OK saved"},
		{"7 same read after note moved to B", func() { must(t, c.notes.MoveNote(bg, "note-a1", "proj-b")) }, readTool, read, "DENY not_in_project"},
		{"7b note back in A", func() { must(t, c.notes.MoveNote(bg, "note-a1", "proj-a")) }, readTool, read, "OK Q3 launch checklist"},
		{"8 same read after owner removes project A", func() { must(t, c.panel.RemoveProject(bg, connID, "proj-a")) }, readTool, read, "DENY not_in_project"},
		{"9 same read after revoke", func() {
			must(t, c.panel.AddProject(bg, connID, "proj-a"))
			must(t, c.panel.Revoke(bg, connID))
		}, readTool, read, "DENY connection_revoked"},
	}
}

func runSteps(t *testing.T, steps []step, call func(tool string, args map[string]any) string) {
	t.Helper()
	for _, s := range steps {
		if s.owner != nil {
			s.owner()
		}
		got := call(s.tool, s.args())
		if got != s.want && !(s.want == "ERR" && strings.HasPrefix(got, "ERR")) {
			t.Fatalf("step %s: got %s, want %s", s.name, got, s.want)
		}
		t.Logf("%-45s %s", s.name, got)
	}
}

// Bob's browser is signed out: the consent page sends it to the
// provider's sign-in and back to the waiting request, which he approves.
func scenarioGoSDK(t *testing.T, c *cluster) {
	pending, err := c.panel.CreateConnection(bg, "Claude", "Claude chat")
	must(t, err)
	b := c.browser()
	var mu sync.Mutex
	decline, choice, scopes := false, "Use pending: Claude chat", []string{"osfoundry:read"}
	var auths []string
	httpc := c.client(pinOAuth, nil)
	h, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName: "Claude (Go SDK)", RedirectURIs: []string{"http://127.0.0.1:33419/callback"},
			GrantTypes: []string{"authorization_code", "refresh_token"}}},
		AuthorizationCodeFetcher: func(ctx context.Context, a *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
			mu.Lock()
			d, ch := decline, choice
			auths = append(auths, a.URL)
			mu.Unlock()
			if d {
				return nil, errors.New("owner declined")
			}
			loc, err := b.approve(a.URL, "bob", ch)
			if err != nil {
				return nil, err
			}
			q := loc.Query()
			return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
		},
		ScopeFilter: func(d []string) []string {
			mu.Lock()
			defer mu.Unlock()
			if scopes != nil {
				s := scopes
				scopes = nil
				return s
			}
			return d
		},
		Client: httpc,
	})
	must(t, err)
	ctx, cancel := context.WithTimeout(bg, 2*time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: c.lb.URL + "/mcp", OAuthHandler: h, DisableStandaloneSSE: true, HTTPClient: httpc}, nil)
	must(t, err)
	defer cs.Close()
	if init := cs.InitializeResult(); init == nil || init.Instructions != connect.Instructions {
		t.Fatalf("initialize instructions through the balancer: %+v", init)
	}

	call := func(tool string, args map[string]any) string {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			return "ERR " + err.Error()
		}
		return outcome(res.Content[0].(*mcp.TextContent).Text, res.IsError)
	}
	set := func(d bool, ch string) func() { return func() { mu.Lock(); decline, choice = d, ch; mu.Unlock() } }
	runSteps(t, scenarioSteps(t, c, pending.ID, "list_note_tabs", "- ship\n- go sdk", set(false, "Keep using: Claude chat"), set(true, "")), call)
	if got := noteText(t, c); got != "- ship\n- go sdk" {
		t.Fatalf("step 6 did not save: %q", got)
	}
	if len(auths) != 3 {
		t.Fatalf("authorization rounds %d, want 3 (first call, declined step-up, step-up)", len(auths))
	}
	first, _ := url.Parse(auths[0])
	if q := first.Query(); q.Get("resource") != c.lb.URL+"/mcp" || q.Get("code_challenge_method") != "S256" || q.Get("scope") != "osfoundry:read" {
		t.Fatalf("the first authorization request: %s", auths[0])
	}
	conns, err := c.panel.Connections(bg)
	must(t, err)
	for _, cn := range conns {
		if cn.ID == pending.ID && cn.Approver != c.personID("bob") {
			t.Fatalf("the connection's approver is %q, want bob", cn.Approver)
		}
	}
	// Authorize on one replica, token on the other.
	if got := c.servedBy("POST /oauth/authorize"); !slices.Equal(got, []string{"r1"}) {
		t.Fatalf("consent pages served by %v, want r1", got)
	}
	if got := c.servedBy("/oauth/token"); !slices.Equal(got, []string{"r2"}) {
		t.Fatalf("tokens served by %v, want r2", got)
	}
}

// Alice (an owner of two workspaces) connects the TypeScript SDK client;
// her browser is signed out too. The SDK's requests take turns between
// the replicas.
func scenarioTypeScript(t *testing.T, c *cluster) {
	node, sdk, err := connecttest.FindTSSDK(filepath.Join("..", "..", ".."))
	if errors.Is(err, connecttest.ErrNoTSSDK) {
		t.Skip(err)
	}
	must(t, err)
	must(t, c.notes.MoveNote(bg, "note-a1", "proj-a"))
	pending, err := c.panel.CreateConnection(bg, "ChatGPT", "ChatGPT dev mode")
	must(t, err)
	b := c.browser()
	ctx, cancel := context.WithTimeout(bg, 2*time.Minute)
	defer cancel()
	ts, err := connecttest.StartTSClient(ctx, node, sdk, filepath.Join("..", "..", "connect", "testdata", "tsclient.mjs"), c.lb.URL+"/mcp", b.cb, c.ws, "Use pending: ChatGPT dev mode")
	must(t, err)
	ts.Logf = t.Logf
	ts.Approve = func(u string) (*url.URL, error) { return b.approve(u, "alice", ts.Choice) }
	defer func() {
		stderr := ts.Close()
		if t.Failed() {
			t.Logf("node stderr:\n%s", stderr)
		}
	}()
	call := func(tool string, args map[string]any) string {
		text, isErr, err := ts.Raw(tool, args)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(text, "ERR") || (isErr && text == "") {
			return text
		}
		return outcome(text, isErr)
	}
	// RAW answers only results; an HTTP refusal is the script's "ERR …" line.
	rawOrErr := func(tool string, args map[string]any) string {
		if tool == "edit_note_tab" {
			r, err := ts.Call(tool, args)
			must(t, err)
			return r
		}
		return call(tool, args)
	}
	stepUp := func() {
		ts.Choice = "Keep using: ChatGPT dev mode"
		if r, err := ts.Send("RESET osfoundry:read osfoundry:write"); err != nil || r != "OK reset" {
			t.Fatalf("reset: %s %v", r, err)
		}
	}
	runSteps(t, scenarioSteps(t, c, pending.ID, "list_note_tabs", "- ship\n- ts sdk", stepUp, nil), rawOrErr)
	if got := noteText(t, c); got != "- ship\n- ts sdk" {
		t.Fatalf("step 6 did not save: %q", got)
	}
	if len(ts.Auths) != 2 || ts.Iss != c.lb.URL {
		t.Fatalf("authorization rounds %d (want 2), iss %q", len(ts.Auths), ts.Iss)
	}
}
