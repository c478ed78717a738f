package agentcli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
	"github.com/osfoundry/desktop/backend/tools"
)

// The scripted worker scenario both live runs use: a shell command whose
// output proves it ran, a file edit, and memory_search through the bridge.
const (
	markerCmd  = "echo osf-marker-$((6*7))"
	markerOut  = "osf-marker-42"
	memQuery   = "release checklist"
	finalReply = "Finished: marker printed, notes.txt written, checklist found."
)

// memory is a MemorySearcher over one note, recording each search.
type memory struct{ queries []string }

func (m *memory) MemorySearch(_ context.Context, ws, q string, limit int) ([]tools.MemoryHit, error) {
	m.queries = append(m.queries, ws+":"+q)
	return []tools.MemoryHit{{Kind: "note", ID: "n1", Title: "Release checklist", Snippet: "tag, build, notarize",
		UpdatedAt: time.Unix(1700000000, 0).UTC()}}, nil
}

// toolRig is the app side of a run: one executor with memory_search and an
// in-memory audit.
type toolRig struct {
	exec  *tools.Executor
	audit *tools.MemoryAuditor
	mem   *memory
}

func newToolRig(t testing.TB) *toolRig {
	r := &toolRig{audit: &tools.MemoryAuditor{}, mem: &memory{}}
	r.exec = tools.NewExecutor(tools.Options{Auditor: r.audit})
	if err := r.exec.Register(tools.MemorySearchTool(r.mem)); err != nil {
		t.Fatal(err)
	}
	return r
}

func (r *toolRig) access() *ToolAccess {
	return &ToolAccess{Executor: r.exec, Workspace: "ws-test", User: "u1", Channel: "pipeline",
		Allow: []string{"memory_search"}}
}

// codexFakeConfig points Codex at the fake server with -c overrides:
// --ignore-user-config makes it skip the sandbox's config.toml.
func codexFakeConfig(url string) []string {
	return []string{
		`model_provider="fake"`,
		`model_providers.fake.name="fake"`,
		`model_providers.fake.base_url=` + strconv.Quote(url+"/v1"),
		`model_providers.fake.wire_api="responses"`,
		`model_providers.fake.env_key="OSF_FAKE_OPENAI_KEY"`,
		`model_providers.fake.supports_websockets=false`,
		`model_providers.fake.request_max_retries=0`,
		`model_providers.fake.stream_max_retries=0`,
		`check_for_update_on_startup=false`,
		`model=` + strconv.Quote(agentenv.CodexModel),
	}
}

// runnerFor builds a Runner whose children see only the sandbox env.
func runnerFor(t testing.TB, e *agentenv.Env) *Runner {
	t.Helper()
	r := NewRunner(RunnerOptions{
		Env:         Env{Home: e.Home, Path: pathOf(e.Env), Environ: e.Env},
		WorktreeDir: filepath.Join(e.Base, "worktrees"),
	})
	return r
}

func pathOf(env []string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			return v
		}
	}
	return ""
}

// gitRepo makes dir a git repository with one commit.
func gitRepo(t testing.TB, dir string) {
	t.Helper()
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "start"},
	} {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

func readFile(t testing.TB, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("reading %s: %v", p, err)
	}
	return string(b)
}

// claudeWorkerScript is the fake model's side of the Claude worker run.
func claudeWorkerScript(target string) []fakemodel.Turn {
	return []fakemodel.Turn{
		fakemodel.ClaudeBash(markerCmd, "Print a marker"),
		fakemodel.ClaudeWrite(target, "hello from claude\n"),
		fakemodel.ClaudeToolSearch(fakemodel.MCPName("osfoundry", "memory_search")),
		fakemodel.ClaudeMCP("osfoundry", "memory_search", map[string]any{"query": memQuery}),
		fakemodel.Text(finalReply),
	}
}

// codexWorkerScript is the fake model's side of the Codex worker run.
func codexWorkerScript(withBridge bool) []fakemodel.Turn {
	ts := []fakemodel.Turn{
		fakemodel.CodexExec(markerCmd),
		fakemodel.CodexAddFile("notes.txt", "hello from codex"),
	}
	if withBridge {
		ts = append(ts, fakemodel.CodexMCP("osfoundry", "memory_search", map[string]any{"query": memQuery}))
	}
	return append(ts, fakemodel.Text(finalReply))
}
