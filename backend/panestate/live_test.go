package panestate

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/terminal"
	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
	"github.com/osfoundry/desktop/backend/testkit/panewait"
	"github.com/osfoundry/desktop/backend/testkit/procs"
)

// Live: the real pinned CLIs in real panes of a terminal.Manager with
// detection wired exactly as the app wires it (hooks through this test
// binary standing in for the app's pane helper), driven by the fake model
// to a Bash permission prompt. The pane must reach blocked, and after the
// answer leave it for good (working, then idle).

const liveWait = 45 * time.Second

// liveRound runs the prompt → answer round and checks the states.
func liveRound(t *testing.T, r *rig, p *terminal.Pane, id, task string, idle, prompt *regexp.Regexp, srv *fakemodel.Server) {
	t.Helper()
	panewait.Screen(t, p, idle)
	t0 := time.Now()
	panewait.TypeLine(t, p, task)
	blockedAt := r.waitState(id, "blocked", t0)
	st, _ := r.w.State(id)
	t.Logf("blocked %v after Enter, decided by: %s (message %q)", blockedAt.Sub(t0).Round(time.Millisecond), st.Reason, st.Message)

	panewait.Screen(t, p, prompt)
	livePause(t, r, p, id, prompt)
	// The TUI takes keys once the prompt has settled; Enter picks the
	// highlighted first choice (Yes). Pressed again only if the prompt
	// still shows a while later (a key dropped while it drew).
	time.Sleep(500 * time.Millisecond)
	t1 := time.Now()
	p.Write([]byte("\r"))
	for i := 0; i < 3 && r.stateNow(id) == "blocked"; i++ {
		time.Sleep(2 * time.Second)
		if r.stateNow(id) == "blocked" {
			t.Logf("prompt still showing %v after Enter; pressing it again", time.Since(t1).Round(time.Millisecond))
			p.Write([]byte("\r"))
		}
	}
	r.waitState(id, "idle", t1)
	if !srv.WaitMain(2, liveWait) {
		t.Fatalf("the command's result never went back to the model")
	}
	if res := srv.MainRequests()[1].ToolResults(); len(res) != 1 || !strings.Contains(res[0].Text, "osf-marker-42") {
		t.Fatalf("tool result = %+v, want the marker (the answer ran the command)", res)
	}
	// Settled: idle, and no blocked after the answer.
	time.Sleep(time.Second)
	r.mu.Lock()
	defer r.mu.Unlock()
	// The prompt stays drawn for a moment after Enter, so the decision may
	// still say blocked (now from the screen) before Claude redraws; what
	// must never happen is a pane that left blocked becoming blocked again.
	var after []string
	prev := "blocked"
	for _, c := range r.changes {
		if c.ID == id && c.at.After(t1) {
			after = append(after, c.State+" ("+c.Reason+")")
			if c.State == "blocked" && prev != "blocked" {
				t.Errorf("blocked again after the answer: %s", c.Reason)
			}
			prev = c.State
		}
	}
	t.Logf("after the answer: %s", strings.Join(after, " → "))
	if final, _ := r.w.State(id); final.State != "idle" {
		t.Errorf("final state %+v, want idle", final)
	}
}

// livePause pauses the real agent while it asks: its whole process tree
// stops, the screen freezes, the state says paused; after Resume the same
// prompt is still there to take the answer.
func livePause(t *testing.T, r *rig, p *terminal.Pane, id string, prompt *regexp.Regexp) {
	t.Helper()
	if err := r.mgr.Pause(id); err != nil {
		t.Fatalf("pausing the agent: %v", err)
	}
	if st, _ := r.w.State(id); !st.Paused {
		t.Errorf("state after Pause = %+v, want paused", st)
	}
	if s := procs.State(p.Pid()); s != "T" {
		t.Errorf("the pane's program is in state %q while paused, want T (stopped)", s)
	}
	time.Sleep(200 * time.Millisecond) // output written before the stop may still arrive
	frozen := strings.Join(p.Screen().Lines, "\n")
	time.Sleep(time.Second)
	if now := strings.Join(p.Screen().Lines, "\n"); now != frozen {
		t.Errorf("the screen changed while paused:\n%s\n---\n%s", frozen, now)
	}
	if err := r.mgr.Resume(id); err != nil {
		t.Fatalf("resuming the agent: %v", err)
	}
	if st, _ := r.w.State(id); st.Paused {
		t.Errorf("still paused after Resume: %+v", st)
	}
	panewait.Screen(t, p, prompt)
}

func TestLiveClaudeNeedsYou(t *testing.T) {
	srv := fakemodel.Start(t)
	e := agentenv.Claude(t, srv.URL)
	exe, _ := os.Executable()
	r := newRig(t, Config{Exe: exe})
	srv.Push(fakemodel.ClaudeBash("touch osf-bash.txt && echo osf-marker-$((6*7))", "Create a marker file"), fakemodel.Text("All done."))
	// Manual permission mode: 2.1.328 defaults to auto mode, which approves
	// tool calls itself and never asks.
	info, err := r.mgr.Create(terminal.Options{Dir: e.Work, Argv: e.Argv("--permission-mode", "default"), Env: e.Env, Cols: 120, Rows: 32})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := r.mgr.Get(info.ID)
	liveRound(t, r, p, info.ID, "Print the marker with the shell", regexp.MustCompile(`\? for shortcuts`), regexp.MustCompile(`Do you want to proceed\?`), srv)
	if st, _ := r.w.State(info.ID); st.Agent != "claude" {
		t.Errorf("agent = %q, want claude", st.Agent)
	}
}

func TestLiveCodexNeedsYou(t *testing.T) {
	srv := fakemodel.Start(t)
	e := agentenv.Codex(t, srv.URL)
	r := newRig(t, Config{})
	// Read-only sandbox: a command asking for escalation asks the user.
	srv.Push(fakemodel.CodexEscalated("echo osf-marker-$((6*7))", "Print a marker outside the sandbox"), fakemodel.Text("All done."))
	info, err := r.mgr.Create(terminal.Options{Dir: e.Work, Argv: e.Argv("--no-daemon", "-s", "read-only"), Env: e.Env, Cols: 120, Rows: 32})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := r.mgr.Get(info.ID)
	liveRound(t, r, p, info.ID, "Print the marker with the shell", regexp.MustCompile(`\? for shortcuts`), regexp.MustCompile(`Would you like to run the following command\?`), srv)
	if st, _ := r.w.State(info.ID); st.Agent != "codex" {
		t.Errorf("agent = %q, want codex", st.Agent)
	}
}
