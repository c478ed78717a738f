package bridge

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
	"github.com/osfoundry/desktop/backend/tools"
)

// newMessageRig is a message store with projects proj-a and proj-b in
// workspace ws-home, and an executor offering its run tools.
func newMessageRig(t *testing.T) (*messages.Store, *tools.Executor, *tools.MemoryAuditor, messages.Channel, messages.Channel) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(filepath.Join(dir, "osfoundry.db"))
	must(t, err)
	t.Cleanup(func() { db.Close() })
	st, err := notes.Open(db, filepath.Join(dir, "knowledge"))
	must(t, err)
	ms, err := messages.Open(db, messages.Options{})
	must(t, err)
	_, err = st.CreateWorkspace(ctx, "ws-home", "Home")
	must(t, err)
	for _, p := range []string{"proj-a", "proj-b"} {
		_, err = st.CreateProject(ctx, "ws-home", p, p)
		must(t, err)
	}
	discA, err := ms.ProjectDiscussion(ctx, "proj-a")
	must(t, err)
	discB, err := ms.ProjectDiscussion(ctx, "proj-b")
	must(t, err)
	audit := &tools.MemoryAuditor{}
	exec := tools.NewExecutor(tools.Options{Auditor: audit})
	for _, tl := range ms.RunTools() {
		must(t, exec.Register(tl))
	}
	return ms, exec, audit, discA, discB
}

// TestRunPostsInItsProjectsDiscussion: a run started for a project gets
// list_channel_messages and post_channel_message on its bridge, bound to
// that project (a project named in the arguments changes nothing); the
// post says which run wrote it, and a run whose allowlist lacks the tools
// cannot call them.
func TestRunPostsInItsProjectsDiscussion(t *testing.T) {
	ctx := context.Background()
	ms, exec, audit, discA, discB := newMessageRig(t)
	start := func(allow ...string) *mcp.ClientSession {
		b, err := Start(ctx, Config{Workspace: "ws-home", User: "owner", Channel: "pipeline", Project: "proj-a",
			Allow: allow, Executor: exec, Source: "bridge:run_7"})
		must(t, err)
		t.Cleanup(func() { b.Close() })
		return goClient(t, b, nil)
	}
	cs := start(messages.ToolListChannelMessages, messages.ToolPostChannelMessage)
	call := func(tool string, args map[string]any) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		must(t, err)
		return res.Content[0].(*mcp.TextContent).Text, res.IsError
	}
	if text, isErr := call(messages.ToolPostChannelMessage, map[string]any{"text": "Launch summary: ready.", "idempotency_key": "run7-post-1"}); isErr {
		t.Fatalf("post: %s", text)
	}
	if text, isErr := call(messages.ToolListChannelMessages, map[string]any{"channel_id": discB.ID}); !isErr || !strings.Contains(text, "only in the discussion channel") {
		t.Fatalf("another project's channel: error=%v %s", isErr, text)
	}
	if text, isErr := call(messages.ToolListChannelMessages, map[string]any{}); isErr || !strings.Contains(text, "Launch summary: ready.") {
		t.Fatalf("reading back: error=%v %s", isErr, text)
	}
	got, err := ms.ListMessages(ctx, discA.ID, 0, 0)
	must(t, err)
	if len(got) != 1 || got[0].AuthorKind != messages.AuthorAssistant || got[0].AuthorName != "Run run_7" {
		t.Fatalf("discussion of proj-a holds %+v; want the run's post", got)
	}
	if n, _ := ms.ListMessages(ctx, discB.ID, 0, 0); len(n) != 0 {
		t.Fatalf("proj-b's discussion got %d posts", len(n))
	}
	for _, e := range audit.Entries() {
		if e.Tool == messages.ToolPostChannelMessage && e.Workspace != "ws-home" {
			t.Fatalf("audit entry %+v", e)
		}
	}

	// Not on the allowlist: refused before the executor, like any tool.
	other := start("code_search")
	res, err := other.CallTool(ctx, &mcp.CallToolParams{Name: messages.ToolPostChannelMessage,
		Arguments: map[string]any{"text": "x", "idempotency_key": "run7-post-2"}})
	if err == nil && !res.IsError {
		t.Fatalf("a run without the message tools posted")
	}
	if got, _ := ms.ListMessages(ctx, discA.ID, 0, 0); len(got) != 1 {
		t.Fatalf("%d posts after a refused call", len(got))
	}
}

// TestLiveClaudePostsInItsProjectsDiscussion: the real pinned Claude Code,
// started with the bridge flags for a run for proj-a, posts through
// post_channel_message (the fake model asks it to, naming another
// project's channel first): only the post to proj-a's discussion lands.
func TestLiveClaudePostsInItsProjectsDiscussion(t *testing.T) {
	postName := fakemodel.MCPName("osfoundry", messages.ToolPostChannelMessage)
	ms, exec, _, discA, discB := newMessageRig(t)
	srv := fakemodel.Start(t,
		fakemodel.ClaudeToolSearch(postName),
		fakemodel.ClaudeMCP("osfoundry", messages.ToolPostChannelMessage,
			map[string]any{"channel_id": discB.ID, "text": "Wrong room.", "idempotency_key": "live-post-b"}),
		fakemodel.ClaudeMCP("osfoundry", messages.ToolPostChannelMessage,
			map[string]any{"text": "Launch summary: ready to ship.", "idempotency_key": "live-post-a"}),
		fakemodel.Text("Posted the summary."),
	)
	e := agentenv.Claude(t, srv.URL, "IS_SANDBOX=1")
	b, err := Start(context.Background(), Config{Workspace: "ws-home", User: "owner", Channel: "pipeline", Project: "proj-a",
		Allow: []string{messages.ToolListChannelMessages, messages.ToolPostChannelMessage}, Executor: exec, Source: "bridge:run_live"})
	must(t, err)
	t.Cleanup(func() { b.Close() })
	mcpCfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"osfoundry": map[string]any{
		"type": "http", "url": b.URL(), "headers": map[string]string{"Authorization": "Bearer " + b.Token()}, "timeout": 120000,
	}}})
	out := runAgent(t, e, "-p", "Post the launch summary in the project's discussion channel.",
		"--output-format", "stream-json", "--verbose", "--permission-mode", "bypassPermissions", "--add-dir", e.Work,
		"--mcp-config", string(mcpCfg), "--strict-mcp-config")
	if !strings.Contains(out, `"type":"result"`) {
		t.Fatalf("no result event:\n%s", out)
	}
	got, err := ms.ListMessages(context.Background(), discA.ID, 0, 0)
	must(t, err)
	if len(got) != 1 || got[0].Text != "Launch summary: ready to ship." || got[0].AuthorName != "Run run_live" {
		t.Fatalf("proj-a's discussion holds %+v; want the run's summary", got)
	}
	if n, _ := ms.ListMessages(context.Background(), discB.ID, 0, 0); len(n) != 0 {
		t.Fatalf("proj-b's discussion got %+v", n)
	}
	refused := false
	for _, req := range srv.MainRequests() {
		for _, r := range req.ToolResults() {
			refused = refused || strings.Contains(r.Text, "only in the discussion channel of its project")
		}
	}
	if !refused {
		t.Fatal("the model never saw the refusal for the other project's channel")
	}
}
