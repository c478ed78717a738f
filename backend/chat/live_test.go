package chat

import (
	"context"
	"github.com/osfoundry/desktop/backend/runs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/roles"
	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
	"github.com/osfoundry/desktop/backend/tools"
)

type notes struct{}

func (notes) MemorySearch(_ context.Context, ws, q string, _ int) ([]tools.MemoryHit, error) {
	return []tools.MemoryHit{{Kind: "note", ID: "n1", Title: "Plan for " + ws, Snippet: q}}, nil
}

// The Chat screen's flow end to end with the real Claude Code: the Worker
// role runs the task, progress lines stream through the Emitter as they
// happen, the app's memory_search is called through the bridge and
// audited, and an answer asking a question puts the chat in Needs you.
func TestLiveChatWithClaude(t *testing.T) {
	srv := fakemodel.Start(t)
	e := agentenv.Claude(t, srv.URL, "IS_SANDBOX=1")
	srv.Push(
		fakemodel.ClaudeBash("echo chat-$((2*21))", "marker"),
		fakemodel.ClaudeToolSearch(fakemodel.MCPName("osfoundry", "memory_search")),
		fakemodel.ClaudeMCP("osfoundry", "memory_search", map[string]any{"query": "release plan"}),
		fakemodel.Text("I found the plan. Shall I start the release?"),
	)
	db, err := store.Open(filepath.Join(t.TempDir(), "app.db"))
	must(t, err)
	defer db.Close()
	audit := &tools.MemoryAuditor{}
	exec := tools.NewExecutor(tools.Options{Auditor: audit})
	must(t, exec.Register(tools.MemorySearchTool(notes{})))
	ev := &events{}
	runner := agentcli.NewRunner(agentcli.RunnerOptions{Env: agentcli.Env{Home: e.Home, Environ: e.Env,
		Path: strings.TrimPrefix(e.Env[0], "PATH=")}})
	svc, err := New(context.Background(), Options{DB: db, Runner: runner, Emitter: ev,
		Tools: func(runID string, role roles.Role) *agentcli.ToolAccess {
			return &agentcli.ToolAccess{Executor: exec, Workspace: "ws-1", User: "me", Channel: "chat", Allow: roles.DefaultTools, Watched: true}
		}})
	must(t, err)
	defer svc.Close()
	ctx := context.Background()
	_, err = svc.Roles().SetRoleModel(ctx, "Worker", agentcli.ModelClaudeAgent)
	must(t, err)
	_, err = svc.Roles().AddFolder(ctx, e.Work)
	must(t, err)
	c, err := svc.CreateChat(ctx, NewChat{Title: "Release"})
	must(t, err)
	run, err := svc.Send(ctx, c.ID, "find the release plan")
	must(t, err)
	// The first progress line arrives while the run is still going.
	deadline := time.Now().Add(60 * time.Second)
	for len(ev.progress(run.ID)) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	svc.Wait(run.ID)
	p := ev.progress(run.ID)
	if !slices.Contains(p, `Using Bash — {"command":"echo chat-$((2*21))","description":"marker"}`) ||
		!slices.Contains(p, `Using memory_search — {"query":"release plan"}`) {
		t.Fatalf("progress = %q", p)
	}
	d, err := svc.GetChat(ctx, c.ID)
	must(t, err)
	last := d.Messages[len(d.Messages)-1]
	if last.Role != "assistant" || last.Text != "I found the plan. Shall I start the release?" || d.Chat.State != runs.StateNeedsYou {
		t.Fatalf("last message %+v state %s (run error %q)", last, d.Chat.State, d.Runs[0].Error)
	}
	es := audit.Entries()
	if len(es) != 1 || es[0].Workspace != "ws-1" || es[0].Source != "bridge:"+run.ID {
		t.Fatalf("audit = %+v", es)
	}
	if res := srv.MainRequests()[1].ToolResults(); len(res) != 1 || !strings.Contains(res[0].Text, "chat-42") {
		t.Errorf("bash result = %+v", res)
	}
}
