package workers

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/orchestrate"
	"github.com/osfoundry/desktop/backend/pipeline"
	"github.com/osfoundry/desktop/backend/roles"
	"github.com/osfoundry/desktop/backend/runs"
	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/testkit/procs"
)

// orchClaude is a fake claude that reaches its run's real bridge with curl,
// as the real CLI's MCP client would: LIST answers with the tools the
// bridge lists, FLEET calls spawn_fleet with two LIST runs, HANG never ends
// (its PID is kept so the test can see it killed). Other tasks answer with
// the role that ran.
const orchClaude = `#!/bin/sh
task="$2"
cfg=""; prev=""
for a in "$@"; do [ "$prev" = "--mcp-config" ] && cfg="$a"; prev="$a"; done
url=$(printf '%s' "$cfg" | sed -n 's/.*"url":"\([^"]*\)".*/\1/p')
tok=$(printf '%s' "$cfg" | sed -n 's/.*Bearer \([0-9a-f]*\)".*/\1/p')
rpc() { curl -s -X POST "$url" -H "Authorization: Bearer $tok" -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' -d "$1"; }
role=unknown
case "$*" in
*"osFoundry Researcher"*) role=Researcher ;;
*"osFoundry Reviewer"*) role=Reviewer ;;
*"osFoundry Worker"*) role=Worker ;;
esac
echo '{"type":"system","subtype":"init","session_id":"sess-1"}'
case "$task" in
*HANG*) echo $$ >> "$FAKE_DIR/hung"; exec sleep 300 ;;
*LIST*) answer="tools: $(rpc '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' | grep -o '"name":"[a-z_]*"' | sed 's/"name":"//; s/"//' | tr '\n' ' ')" ;;
*FLEET*) answer=$(rpc '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"spawn_fleet","arguments":{"task":"LIST","count":2,"wait_seconds":60}}}' | tr -d '"\\' | tr '\n' ' ') ;;
*) answer="$role finished" ;;
esac
echo "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"result\":\"$answer\",\"session_id\":\"sess-1\",\"usage\":{\"input_tokens\":5,\"output_tokens\":2}}"
`

type orchRig struct {
	w     *Workers
	db    *sql.DB
	dir   string
	notes *notes.Store
}

// newOrchRig builds the workers over a temp database and the real notes
// store, with the fake claude on a PATH of its own and every tool role
// assigned to cli:claude:agent.
func newOrchRig(t *testing.T) *orchRig {
	t.Helper()
	dir := t.TempDir()
	bin, home, work := filepath.Join(dir, "bin"), filepath.Join(dir, "home"), filepath.Join(dir, "work")
	for _, d := range []string{bin, home, work} {
		must(t, os.MkdirAll(d, 0o700))
	}
	must(t, os.WriteFile(filepath.Join(bin, "claude"), []byte(orchClaude), 0o755))
	db, err := store.Open(filepath.Join(dir, "app.db"))
	must(t, err)
	t.Cleanup(func() { db.Close() })
	st, err := notes.Open(db, filepath.Join(dir, "knowledge"))
	must(t, err)
	path := bin + ":/usr/bin:/bin"
	w, err := Open(context.Background(), Options{DB: db, Memory: st, DataDir: dir,
		Env: agentcli.Env{Home: home, Path: path, Environ: []string{"PATH=" + path, "HOME=" + home, "FAKE_DIR=" + dir}}})
	must(t, err)
	t.Cleanup(func() { w.Close() })
	ctx := context.Background()
	for _, role := range []string{"Worker", "Researcher", "Reviewer"} {
		_, err := w.Chat.Roles().SetRoleModel(ctx, role, agentcli.ModelClaudeAgent)
		must(t, err)
	}
	_, err = w.Chat.Roles().AddFolder(ctx, work)
	must(t, err)
	return &orchRig{w: w, db: db, dir: dir, notes: st}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func (r *orchRig) run(t *testing.T, role, task string, o runs.Origin) runs.Run {
	t.Helper()
	run, err := r.w.Chat.Pipeline().StartRole(context.Background(), pipeline.RoleTask{Role: role, Task: task, Origin: o})
	must(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	run, err = r.w.Chat.Runs().WaitRun(ctx, run.ID)
	must(t, err)
	if run.State != runs.StateDone {
		t.Fatalf("run %s: %s %s", role, run.State, run.Error)
	}
	return run
}

// The bridge of each run lists the orchestration tools only to a Worker a
// person started; the allowlist is what the real bridge answers.
func TestBridgeOffersOrchestrationOnlyToTopWorkers(t *testing.T) {
	r := newOrchRig(t)
	orch := runs.OrchestrationTools
	tests := []struct {
		name, role string
		origin     runs.Origin
		want, not  []string
	}{
		{"Worker from the window", "Worker", runs.Origin{}, append([]string{"memory_search"}, orch...), nil},
		{"Researcher", "Researcher", runs.Origin{}, []string{"memory_search"}, orch},
		{"Worker started by a fleet", "Worker", runs.Origin{Source: "bridge:x", Depth: 1}, []string{"memory_search"}, orch},
		{"Worker an assistant started", "Worker", runs.Origin{Source: "connect:c", Workspace: "ws", Unattended: true, Depth: 1},
			[]string{"code_search"}, append([]string{"memory_search", "todo_list"}, orch...)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.Fields(strings.TrimPrefix(r.run(t, tc.role, "LIST", tc.origin).Text, "tools: "))
			for _, n := range tc.want {
				if !slices.Contains(got, n) {
					t.Errorf("bridge lists %v, lacks %s", got, n)
				}
			}
			for _, n := range tc.not {
				if slices.Contains(got, n) {
					t.Errorf("bridge lists %s (%v)", n, got)
				}
			}
		})
	}
}

// A Worker calls spawn_fleet through its real bridge; the fleet's runs
// start, cannot orchestrate themselves, and their answers come back in
// the tool result.
func TestWorkerSpawnsAFleetThroughItsBridge(t *testing.T) {
	r := newOrchRig(t)
	// The Worker works in a chat's own folder, not the current Local
	// Folder: its fleet works there too.
	chatFolder := t.TempDir()
	parent := r.run(t, "Worker", "FLEET", runs.Origin{Folder: chatFolder})
	if !strings.Contains(parent.Text, "kind: fleet") || !strings.Contains(parent.Text, "state: done") {
		t.Fatalf("spawn_fleet answered: %s", parent.Text)
	}
	if n := strings.Count(parent.Text, "tools: "); n != 2 {
		t.Fatalf("%d fleet answers in %s", n, parent.Text)
	}
	for _, child := range strings.Split(parent.Text, "tools: ")[1:] {
		if strings.Contains(child, "spawn_fleet") || !strings.Contains(child, "memory_search") {
			t.Errorf("a fleet run's bridge offered: %s", child)
		}
	}
	ids := regexp.MustCompile(`runId: ([0-9a-f]+)`).FindAllStringSubmatch(parent.Text, -1)
	if len(ids) != 2 {
		t.Fatalf("fleet run ids in %s", parent.Text)
	}
	for _, id := range ids {
		child, err := r.w.Chat.GetRun(context.Background(), id[1])
		must(t, err)
		if child.Folder != chatFolder || child.State != runs.StateDone || child.Role != "Worker" {
			t.Errorf("fleet run = %+v, want Worker done in %s", child, chatFolder)
		}
	}
}

// Cancelling a graph mid-way kills the running step's CLI process group
// and skips the rest.
func TestGraphCancelKillsTheRunningStep(t *testing.T) {
	r := newOrchRig(t)
	m := r.w.Orchestrator
	g := orchestrate.Graph{Task: "Ship it", Stages: []orchestrate.Stage{{{Role: "Researcher"}}, {{Role: "Worker", Task: "HANG"}}, {{Role: "Reviewer"}}}}
	st, err := m.StartGraph(context.Background(), "owner", g, runs.Origin{}, nil)
	must(t, err)
	var pid int
	for deadline := time.Now().Add(30 * time.Second); pid == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the Worker step never started")
		}
		b, _ := os.ReadFile(filepath.Join(r.dir, "hung"))
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	if !procs.Alive(pid) {
		t.Fatalf("the hanging step %d is not running", pid)
	}
	st, err = m.Cancel("owner", st.ID)
	must(t, err)
	if procs.Alive(pid) {
		t.Errorf("the step's process %d is still there after cancel", pid)
	}
	want := []string{orchestrate.StateDone, orchestrate.StateCancelled, orchestrate.StateSkipped}
	for i, s := range st.Steps {
		if s.State != want[i] {
			t.Errorf("step %d (%s) is %s, want %s", i, s.Role, s.State, want[i])
		}
	}
	if st.State != orchestrate.StateCancelled || st.Steps[0].Answer != "Researcher finished" {
		t.Errorf("graph = %+v", st)
	}
	run, err := r.w.Chat.GetRun(context.Background(), st.Steps[1].RunID)
	must(t, err)
	if run.State != runs.StateFailed {
		t.Errorf("the cancelled run is recorded as %s", run.State)
	}
}

func TestRunAccess(t *testing.T) {
	worker, _ := roles.LookupRole("Worker")
	base := []string{"memory_search", "code_search", "runtime_read", "spawn_fleet"}
	tests := []struct {
		name     string
		o        runs.Origin
		ws, user string
		watched  bool
		allow    []string
	}{
		{"window", runs.Origin{}, notes.DefaultWorkspace, User, true,
			[]string{"memory_search", "code_search", "runtime_read", "spawn_fleet", "loop_run", "graph_run"}},
		{"fleet run", runs.Origin{Source: "bridge:r", Workspace: "w", User: "u", Depth: 1}, "w", "u", true,
			[]string{"memory_search", "code_search", "runtime_read"}},
		{"assistant", runs.Origin{Source: "connect:c", Workspace: "ws-acme", User: "owner", Unattended: true, Depth: 1}, "ws-acme", "owner", false,
			[]string{"code_search"}},
		// A run for a project reads and posts in its discussion channel.
		{"assistant, for a project", runs.Origin{Source: "connect:c", Workspace: "ws-acme", User: "owner", Unattended: true, Depth: 1, Project: "proj-a"},
			"ws-acme", "owner", false, []string{"code_search", "list_channel_messages", "post_channel_message"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := runAccess(nil, base, worker, tc.o)
			if a.Workspace != tc.ws || a.User != tc.user || a.Watched != tc.watched || !slices.Equal(a.Allow, tc.allow) || a.Project != tc.o.Project {
				t.Fatalf("access = %+v", a)
			}
		})
	}
}
