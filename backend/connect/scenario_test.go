package connect

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/osfoundry/desktop/backend/tools"
)

// sdkClient is the Go SDK client with its own OAuth handler: discovery,
// dynamic registration, PKCE and token exchange are the SDK's; only the
// browser step is ours (the owner's browser follows the consent).
type sdkClient struct {
	mu       sync.Mutex
	scopes   []string // what the client asks for first
	decline  bool     // the owner refuses the next consent
	choice   string   // the Connection option the owner picks
	authURLs []string
	session  *mcp.ClientSession
}

func (e *env) sdkClient(t *testing.T, b *browser, scopes []string, choice string) *sdkClient {
	c := &sdkClient{scopes: scopes, choice: choice}
	fetch := func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		c.mu.Lock()
		c.authURLs = append(c.authURLs, args.URL)
		decline, choice := c.decline, c.choice
		c.mu.Unlock()
		if decline {
			return nil, errors.New("owner declined")
		}
		loc, err := b.approve(args.URL, choice)
		if err != nil {
			return nil, err
		}
		q := loc.Query()
		return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
	}
	h, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName: "Claude Code (Go SDK test)", RedirectURIs: []string{"http://127.0.0.1:33418/callback"},
			GrantTypes: []string{"authorization_code", "refresh_token"}}},
		AuthorizationCodeFetcher: fetch,
		ScopeFilter: func(discovered []string) []string {
			c.mu.Lock()
			defer c.mu.Unlock()
			if c.scopes != nil {
				s := c.scopes
				c.scopes = nil // later rounds (step-up) ask for what the server says
				return s
			}
			return discovered
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	cl := mcp.NewClient(&mcp.Implementation{Name: "go-sdk-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := cl.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: e.srv.ResourceURL(), OAuthHandler: h, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatalf("connecting: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	c.session = s
	return c
}

// outcome is one scenario line: "OK <value>" or "DENY <code>".
func (c *sdkClient) call(t *testing.T, tool string, args map[string]any) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := c.session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return "", err
	}
	return outcome(t, res), nil
}

func outcome(t *testing.T, res *mcp.CallToolResult) string {
	text := ""
	if len(res.Content) > 0 {
		text = res.Content[0].(*mcp.TextContent).Text
	}
	if res.IsError {
		code, _, _ := strings.Cut(text, ":")
		return "DENY " + code
	}
	var v struct {
		Resources []Resource `json:"resources"`
		Text      string     `json:"text"`
	}
	if json.Unmarshal([]byte(text), &v) == nil {
		switch {
		case v.Resources != nil:
			ids := []string{}
			for _, r := range v.Resources {
				ids = append(ids, r.ID)
			}
			b, _ := json.Marshal(ids)
			return "OK " + string(b)
		case v.Text != "":
			return "OK " + v.Text
		}
	}
	return "OK " + text
}

// TestScenarioGoSDK is docs/reference.md §6's 9-step scenario over real HTTP with the
// Go SDK client doing the whole discovery → DCR → PKCE → token flow.
func TestScenarioGoSDK(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	pending, err := e.svc.CreateConnection(ctx, "Claude", "Claude chat")
	if err != nil {
		t.Fatal(err)
	}
	if pending.StatusText != TextPending {
		t.Fatalf("new connection says %q", pending.StatusText)
	}
	b := e.browser(true)
	c := e.sdkClient(t, b, []string{tools.ScopeRead}, "Use pending: Claude chat")
	read := map[string]any{"note_id": "note-a1"}
	steps := []struct {
		name  string
		owner func()
		tool  string
		args  map[string]any
		want  string
	}{
		{"1 fresh connection, no project yet", nil, "list_project_resources", map[string]any{}, `OK []`},
		{"2 after owner adds project A", func() { must(t, e.svc.AddProject(ctx, pending.ID, "proj-a")) }, "list_project_resources", map[string]any{}, `OK ["note-a1"]`},
		{"3 read note in A", nil, "read_note", read, "OK Q3 launch checklist"},
		{"4 read note in B (never added)", nil, "read_note", map[string]any{"note_id": "note-b1"}, "DENY not_in_project"},
		{"5 write with a read-only token", func() { c.setDecline(true) }, "edit_note", map[string]any{"note_id": "note-a1", "text": "v2"}, "ERR owner declined"},
		{"6 write with read+write token", func() { c.setDecline(false); c.setChoice("Keep using: Claude chat") }, "edit_note", map[string]any{"note_id": "note-a1", "text": "Q3 launch checklist v2"}, "OK saved"},
		{"7 same read after note moved to B", func() { e.notes.move("note-a1", "proj-b") }, "read_note", read, "DENY not_in_project"},
		{"7b moved back to A", func() { e.notes.move("note-a1", "proj-a") }, "read_note", read, "OK Q3 launch checklist v2"},
		{"8 same read after owner removes project A", func() { must(t, e.svc.RemoveProject(ctx, pending.ID, "proj-a")) }, "read_note", read, "DENY not_in_project"},
		{"9 same read after revoke", func() {
			must(t, e.svc.AddProject(ctx, pending.ID, "proj-a"))
			must(t, e.svc.Revoke(ctx, pending.ID))
		}, "read_note", read, "DENY connection_revoked"},
	}
	for _, s := range steps {
		if s.owner != nil {
			s.owner()
		}
		got, err := c.call(t, s.tool, s.args)
		if err != nil {
			got = "ERR " + err.Error()
			if strings.HasPrefix(s.want, "ERR ") && strings.Contains(got, strings.TrimPrefix(s.want, "ERR ")) {
				got = s.want
			}
		}
		if got != s.want {
			t.Fatalf("step %s: got %s, want %s", s.name, got, s.want)
		}
		t.Logf("%-45s %s", s.name, got)
	}
	// Discovery happened once, then one step-up at step 5 (declined) and
	// one at step 6; the step-up asked for write because the 403 said so.
	if n := len(c.authURLs); n != 3 {
		t.Fatalf("authorization rounds = %d, want 3", n)
	}
	first, _ := url.Parse(c.authURLs[0])
	if got := first.Query().Get("scope"); got != tools.ScopeRead {
		t.Fatalf("first round asked scope %q", got)
	}
	up, _ := url.Parse(c.authURLs[1])
	if !slices.Contains(strings.Fields(up.Query().Get("scope")), tools.ScopeWrite) {
		t.Fatalf("step-up asked scope %q, want osfoundry:write in it", up.Query().Get("scope"))
	}
	conns, _ := e.svc.Connections(ctx)
	if len(conns) != 1 {
		t.Fatalf("consent made %d connections, want the pending one reused", len(conns))
	}
	act, _ := e.svc.RecentActivity(ctx, pending.ID, 0)
	decisions := []string{}
	for i := len(act) - 1; i >= 0; i-- {
		decisions = append(decisions, act[i].Tool+" "+act[i].Decision)
	}
	wantAct := []string{"list_project_resources allowed", "list_project_resources allowed", "read_note allowed",
		"read_note denied: not_in_project", "edit_note denied: insufficient_scope",
		"edit_note denied: insufficient_scope", "consent reused", "edit_note allowed", // step 6: 403, step-up (the connection is taken again), retry
		"read_note denied: not_in_project", "read_note allowed", "read_note denied: not_in_project", "read_note denied: connection_revoked"}
	if !slices.Equal(decisions, wantAct) {
		t.Fatalf("recent activity:\n got %q\nwant %q", decisions, wantAct)
	}
}

func (c *sdkClient) setDecline(v bool)  { c.mu.Lock(); c.decline = v; c.mu.Unlock() }
func (c *sdkClient) setChoice(v string) { c.mu.Lock(); c.choice = v; c.mu.Unlock() }

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
