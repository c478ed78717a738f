package agentcli

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/osfoundry/desktop/backend/testkit/agentbin"
	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
)

var record = flag.Bool("record", false, "save the live runs' stdout under testdata as decoder fixtures")

// capture collects a run's events and raw stdout.
type capture struct {
	mu     sync.Mutex
	events []Event
	raw    bytes.Buffer
}

func (c *capture) on(e Event) { c.mu.Lock(); c.events = append(c.events, e); c.mu.Unlock() }
func (c *capture) tap(l []byte) {
	c.mu.Lock()
	c.raw.Write(l)
	c.raw.WriteByte('\n')
	c.mu.Unlock()
}

func (c *capture) progress() []string {
	var out []string
	for _, e := range c.events {
		if e.Kind == KindProgress {
			out = append(out, e.Text)
		}
	}
	return out
}

func (c *capture) save(t *testing.T, agent, name string) {
	if !*record {
		return
	}
	v, err := agentbin.Version(agentbin.Packages[agent])
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join("testdata", agent+"-"+v+"."+name+".jsonl")
	if err := os.WriteFile(p, c.raw.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("recorded %s", p)
}

func hasPrefixLine(lines []string, prefix string) bool {
	return slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, prefix) })
}

func checkAudit(t *testing.T, rig *toolRig, runID string) {
	t.Helper()
	es := rig.audit.Entries()
	if len(es) != 1 || es[0].Tool != "memory_search" || es[0].Decision != "ran" ||
		es[0].Workspace != "ws-test" || es[0].Source != "bridge:"+runID || !strings.Contains(string(es[0].Args), memQuery) {
		t.Fatalf("audit = %+v, want one memory_search call run in ws-test from bridge:%s", es, runID)
	}
	if len(rig.mem.queries) != 1 || rig.mem.queries[0] != "ws-test:"+memQuery {
		t.Fatalf("memory searched = %v", rig.mem.queries)
	}
}

func TestLiveClaudeWorker(t *testing.T) {
	srv := fakemodel.Start(t)
	e := agentenv.Claude(t, srv.URL, "IS_SANDBOX=1")
	target := filepath.Join(e.Work, "notes.txt")
	srv.Push(claudeWorkerScript(target)...)
	rig := newToolRig(t)
	c := &capture{}
	res, err := runnerFor(t, e).Run(context.Background(), Job{
		ID: "claude1", Model: ModelClaudeAgent, Role: "Worker", NeedsTools: true,
		SystemPrompt: "You are the Worker.", Turns: []Turn{{Role: "user", Text: "print the marker, write notes.txt, search the checklist"}},
		Folder: e.Work, Tools: rig.access(), OnEvent: c.on, Tap: c.tap,
	})
	c.save(t, "claude", "worker")
	if err != nil {
		t.Fatalf("run: %v\nprogress: %q\nstderr: %s", err, res.Progress, res.StderrTail)
	}
	if res.Text != finalReply || res.IsError || res.SessionID == "" {
		t.Fatalf("result text %q error %v session %q", res.Text, res.IsError, res.SessionID)
	}
	if got := readFile(t, target); got != "hello from claude\n" {
		t.Fatalf("notes.txt = %q", got)
	}
	p := c.progress()
	for _, want := range []string{
		`Using Bash — {"command":"` + markerCmd,
		`Using Write — {"file_path":"` + target,
		`Using memory_search — {"query":"` + memQuery + `"}`,
	} {
		if !hasPrefixLine(p, want) {
			t.Errorf("no progress line %q in %q", want, p)
		}
	}
	main := srv.MainRequests()
	if res := main[1].ToolResults(); len(res) != 1 || !strings.Contains(res[0].Text, markerOut) {
		t.Errorf("Bash result sent to the model = %+v", res)
	}
	if res.Usage.OutputTokens == 0 || res.Usage.ContextTokens == 0 || res.CostUSD != 0 {
		t.Errorf("usage %+v cost %v", res.Usage, res.CostUSD)
	}
	checkAudit(t, rig, "claude1")
	// the system prompt and the strict MCP config reached the CLI
	if !strings.Contains(string(main[0].Body), "You are the Worker.") {
		t.Error("the role prompt was not appended to Claude's system prompt")
	}
}

// codexWorkerRig is the real Codex in a git repo against the fake model
// scripted as a Worker (with a memory_search call when withBridge).
func codexWorkerRig(t *testing.T, withBridge bool) (*fakemodel.Server, *agentenv.Env, *toolRig, *Runner, *capture) {
	srv := fakemodel.Start(t, codexWorkerScript(withBridge)...)
	e := agentenv.Codex(t, srv.URL)
	gitRepo(t, e.Work)
	r := runnerFor(t, e)
	r.o.CodexConfig = codexFakeConfig(namespaceProxy(t, srv.URL))
	return srv, e, newToolRig(t), r, &capture{}
}

func codexWorker(t *testing.T, worktree bool) {
	srv, e, rig, r, c := codexWorkerRig(t, worktree)
	id := "codexnowt"
	if worktree {
		id = "codexwt"
	}
	res, err := r.Run(context.Background(), Job{
		ID: id, Model: ModelCodexAgent, Role: "Worker", NeedsTools: true,
		SystemPrompt: "You are the Worker.", Turns: []Turn{{Role: "user", Text: "print the marker, add notes.txt, search the checklist"}},
		Folder: e.Work, Worktree: worktree, Tools: rig.access(), OnEvent: c.on, Tap: c.tap,
	})
	if worktree {
		c.save(t, "codex", "worker-worktree")
	} else {
		c.save(t, "codex", "worker")
	}
	if err != nil {
		t.Fatalf("run: %v\nprogress: %q\nstderr: %s", err, res.Progress, res.StderrTail)
	}
	if res.Text != finalReply || res.SessionID == "" {
		t.Fatalf("result text %q session %q", res.Text, res.SessionID)
	}
	p := c.progress()
	for _, want := range []string{"Using shell — ", "Edited "} {
		if !hasPrefixLine(p, want) {
			t.Errorf("no progress line %q in %q", want, p)
		}
	}
	if !strings.Contains(strings.Join(p, "\n"), markerCmd) {
		t.Errorf("shell line does not show the command: %q", p)
	}
	u := res.Usage
	// turn.completed sums the turn's model calls; every call reports CachedTokens.
	if u.CachedInputTokens == 0 || u.CachedInputTokens%fakemodel.CachedTokens != 0 || u.ContextTokens != u.InputTokens+u.CachedInputTokens || u.OutputTokens == 0 {
		t.Errorf("usage = %+v", u)
	}
	main := srv.MainRequests()
	if tr := main[1].ToolResults(); len(tr) != 1 || !strings.Contains(tr[0].Text, markerOut) {
		t.Errorf("shell output sent to the model = %+v", tr)
	}
	if !worktree {
		if got := readFile(t, filepath.Join(e.Work, "notes.txt")); got != "hello from codex\n" {
			t.Fatalf("notes.txt = %q", got)
		}
		if !hasPrefixLine(p, "osFoundry tools are off for this run") {
			t.Errorf("no line saying the tools are off: %q", p)
		}
		if len(rig.audit.Entries()) != 0 || main[0].HasTool(fakemodel.MCPName("osfoundry", "memory_search")) {
			t.Error("a no-worktree Codex run was offered the bridge")
		}
		return
	}
	if slices.Contains(p, "Using memory_search…") == false {
		t.Errorf("no memory_search line in %q", p)
	}
	checkAudit(t, rig, id)
	if _, err := os.Stat(filepath.Join(e.Work, "notes.txt")); err == nil {
		t.Error("the worktree run wrote into the user's folder")
	}
	if res.Branch != BranchPrefix+id || !strings.Contains(res.Diff, "+hello from codex") {
		t.Fatalf("branch %q diff %q", res.Branch, res.Diff)
	}
	if out, err := gitCmd(context.Background(), os.Environ(), e.Work, "worktree", "list", "--porcelain"); err != nil || strings.Count(out, "worktree ") != 1 {
		t.Fatalf("worktrees left: %s %v", out, err)
	}
	if out, _ := gitCmd(context.Background(), os.Environ(), e.Work, "show", res.Branch+":notes.txt"); out != "hello from codex\n" {
		t.Fatalf("branch holds notes.txt = %q", out)
	}
}

func TestLiveCodexWorkerNoWorktree(t *testing.T) { codexWorker(t, false) }
func TestLiveCodexWorkerWorktree(t *testing.T)   { codexWorker(t, true) }

// "Continue here" for Codex: a second run resumes the first run's session
// with `codex exec resume <id>`; the model sees the earlier turn.
func TestLiveCodexResume(t *testing.T) {
	srv := fakemodel.Start(t, fakemodel.Text("First answer."), fakemodel.Text("Second answer."))
	e := agentenv.Codex(t, srv.URL)
	r := runnerFor(t, e)
	r.o.CodexConfig = codexFakeConfig(srv.URL)
	first, err := r.Run(context.Background(), Job{Model: ModelCodexAgent, Turns: []Turn{{Role: "user", Text: "remember the word zebra"}}, Folder: e.Work})
	if err != nil || first.SessionID == "" {
		t.Fatalf("first run: %v %+v", err, first)
	}
	second, err := r.Run(context.Background(), Job{Model: ModelCodexAgent, Resume: first.SessionID,
		Turns: []Turn{{Role: "user", Text: "what was the word?"}}, Folder: e.Work})
	if err != nil || second.Text != "Second answer." {
		t.Fatalf("resumed run: %v %+v\nstderr %s", err, second, second.StderrTail)
	}
	main := srv.MainRequests()
	if len(main) != 2 || !strings.Contains(string(main[1].Body), "remember the word zebra") || !strings.Contains(string(main[1].Body), "First answer.") {
		t.Fatalf("the resumed request does not carry the first turn (%d requests)", len(main))
	}
	if second.SessionID != first.SessionID {
		t.Errorf("session %s, want %s", second.SessionID, first.SessionID)
	}
}

// "Continue here" for Claude: --resume carries the earlier turns.
func TestLiveClaudeResume(t *testing.T) {
	srv := fakemodel.Start(t, fakemodel.Text("First answer."), fakemodel.Text("Second answer."))
	e := agentenv.Claude(t, srv.URL, "IS_SANDBOX=1")
	r := runnerFor(t, e)
	first, err := r.Run(context.Background(), Job{Model: ModelClaudeAgent, Turns: []Turn{{Role: "user", Text: "remember the word zebra"}}, Folder: e.Work})
	if err != nil || first.SessionID == "" {
		t.Fatalf("first run: %v %+v", err, first)
	}
	second, err := r.Run(context.Background(), Job{Model: ModelClaudeAgent, Resume: first.SessionID,
		Turns: []Turn{{Role: "user", Text: "what was the word?"}}, Folder: e.Work})
	if err != nil || second.Text != "Second answer." {
		t.Fatalf("resumed run: %v %+v", err, second)
	}
	main := srv.MainRequests()
	if len(main) != 2 || !strings.Contains(string(main[1].Body), "remember the word zebra") || !strings.Contains(string(main[1].Body), "First answer.") {
		t.Fatalf("the resumed request does not carry the first turn (%d requests)", len(main))
	}
}

// "Continue here" on a Codex session: `codex exec fork` continues it in a
// new thread; the original rollout keeps every byte.
func TestLiveCodexForkLeavesTheOriginal(t *testing.T) {
	srv := fakemodel.Start(t, fakemodel.Text("First answer."), fakemodel.Text("Second answer."))
	e := agentenv.Codex(t, srv.URL)
	r := runnerFor(t, e)
	r.o.CodexConfig = codexFakeConfig(srv.URL)
	first, err := r.Run(context.Background(), Job{Model: ModelCodexAgent, Turns: []Turn{{Role: "user", Text: "remember the word zebra"}}, Folder: e.Work})
	if err != nil || first.SessionID == "" {
		t.Fatalf("first run: %v %+v", err, first)
	}
	var rollout string
	filepath.WalkDir(filepath.Join(e.Home, ".codex"), func(p string, d os.DirEntry, err error) error { //nolint:errcheck // a walk error leaves rollout empty
		if err == nil && strings.HasSuffix(p, first.SessionID+".jsonl") {
			rollout = p
		}
		return nil
	})
	before, err := os.ReadFile(rollout)
	if err != nil {
		t.Fatalf("the first run's rollout: %v", err)
	}
	second, err := r.Run(context.Background(), Job{Model: ModelCodexAgent, Resume: first.SessionID, Fork: true,
		Turns: []Turn{{Role: "user", Text: "what was the word?"}}, Folder: e.Work})
	if err != nil || second.Text != "Second answer." {
		t.Fatalf("forked run: %v %+v\nstderr %s", err, second, second.StderrTail)
	}
	if after, _ := os.ReadFile(rollout); !bytes.Equal(before, after) {
		t.Fatalf("the original rollout changed: %d bytes before, %d after", len(before), len(after))
	}
	if second.SessionID == "" || second.SessionID == first.SessionID {
		t.Errorf("forked session %q, want a new one (original %s)", second.SessionID, first.SessionID)
	}
	main := srv.MainRequests()
	if len(main) != 2 || !strings.Contains(string(main[1].Body), "remember the word zebra") || !strings.Contains(string(main[1].Body), "First answer.") {
		t.Fatalf("the forked request does not carry the first turn (%d requests)", len(main))
	}
}
