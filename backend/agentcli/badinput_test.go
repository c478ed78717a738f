package agentcli

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func job(model, folder, task string, events *[]Event) Job {
	return Job{Model: model, Role: "Worker", Folder: folder, Turns: []Turn{{Role: "user", Text: task}},
		OnEvent: func(e Event) { *events = append(*events, e) }}
}

// dumpedArgv finds the argv the fake CLI printed.
func dumpedArgv(t *testing.T, evs []Event) []string {
	t.Helper()
	for _, e := range evs {
		var d struct {
			Type string   `json:"type"`
			Argv []string `json:"argv"`
		}
		if e.Kind == KindRaw && json.Unmarshal([]byte(e.Text), &d) == nil && d.Type == "argv_dump" {
			return d.Argv
		}
	}
	t.Fatalf("the fake CLI printed no argv: %v", evs)
	return nil
}

func TestBadInputs(t *testing.T) {
	tests := []struct {
		name, mode, model string
		wantErr           []string // substrings of the error; nil = success
		check             func(t *testing.T, res Result, evs []Event)
	}{
		{name: "too old", mode: "old", model: ModelClaudeAgent,
			wantErr: []string{"exited with status 1", "unknown option '--include-partial-messages'", "too old", "update it"}},
		{name: "exits non-zero", mode: "exit3", model: ModelCodexAgent,
			wantErr: []string{"Codex exited with status 3", "model overloaded"},
			check: func(t *testing.T, res Result, _ []Event) {
				if res.ExitCode != 3 || !strings.Contains(res.StderrTail, "model overloaded") {
					t.Errorf("exit %d stderr %q", res.ExitCode, res.StderrTail)
				}
			}},
		{name: "dies mid-stream", mode: "die", model: ModelClaudeAgent,
			wantErr: []string{"Claude Code stopped unexpectedly", "signal: killed"}},
		{name: "ends without a result", mode: "noresult", model: ModelClaudeAgent,
			wantErr: []string{"ended without a final answer"}},
		{name: "non-JSON lines", mode: "nonjson", model: ModelCodexAgent,
			check: func(t *testing.T, res Result, evs []Event) {
				raw := 0
				for _, e := range evs {
					if e.Kind == KindRaw {
						raw++
					}
				}
				if res.Text != "answer despite noise" || raw != 2 {
					t.Errorf("text %q, %d raw lines", res.Text, raw)
				}
			}},
		{name: "floods stdout", mode: "flood", model: ModelClaudeAgent,
			check: func(t *testing.T, res Result, evs []Event) {
				if res.Text != "survived the flood" || len(evs) > maxRawLines+10 {
					t.Errorf("text %q after %d events", res.Text, len(evs))
				}
			}},
		{name: "not signed in", mode: "notloggedin", model: ModelClaudeAgent,
			wantErr: []string{"Not logged in · Please run /login"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, work := fakeCLI(t, tc.mode)
			var evs []Event
			res, err := r.Run(context.Background(), job(tc.model, work, "do it", &evs))
			if tc.wantErr == nil && err != nil {
				t.Fatalf("run failed: %v", err)
			}
			for _, w := range tc.wantErr {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Errorf("error %v does not say %q", err, w)
				}
			}
			if tc.check != nil {
				tc.check(t, res, evs)
			}
		})
	}
}

func TestCLIMissing(t *testing.T) {
	r := NewRunner(RunnerOptions{Env: Env{Home: t.TempDir(), Path: t.TempDir()}})
	_, err := r.Run(context.Background(), Job{Model: ModelClaudeAgent, Folder: t.TempDir(), Turns: []Turn{{Text: "x"}}})
	if !errors.Is(err, ErrNotInstalled) || !strings.Contains(err.Error(), "npm install -g @anthropic-ai/claude-code") {
		t.Fatalf("err = %v", err)
	}
	_, err = r.Verify(context.Background(), Codex, VerifyOptions{})
	if !errors.Is(err, ErrNotInstalled) {
		t.Fatalf("verify err = %v", err)
	}
}

// A task with quotes, newlines and flag-like text reaches the CLI as one
// argument, byte for byte, and never as a flag.
func TestHostileTask(t *testing.T) {
	task := "--help\n-p \"quoted\" 'single' $(rm -rf ~) `id` ; && | > /etc/passwd\n--dangerously-skip-permissions"
	for _, model := range []string{ModelClaudeAgent, ModelCodexAgent} {
		t.Run(model, func(t *testing.T) {
			r, work := fakeCLI(t, "argv")
			var evs []Event
			if _, err := r.Run(context.Background(), job(model, work, task, &evs)); err != nil {
				t.Fatal(err)
			}
			argv := dumpedArgv(t, evs)
			prompt := argv[1] // after "-p" or "exec"
			if prompt != "User: "+task {
				t.Fatalf("prompt argument = %q", prompt)
			}
			if slices.Contains(argv, "--help") || slices.Contains(argv, "--dangerously-skip-permissions") {
				t.Fatalf("task text became a flag: %q", argv)
			}
		})
	}
}

func TestTimeLimitKillsProcessTree(t *testing.T) {
	r, work := fakeCLI(t, "hang")
	var evs []Event
	j := job(ModelCodexAgent, work, "hang", &evs)
	j.Limit = 1500 * time.Millisecond
	res, err := r.Run(context.Background(), j)
	if !errors.Is(err, ErrTimedOut) || !strings.Contains(err.Error(), "everything it started was ended too") {
		t.Fatalf("err = %v", err)
	}
	pids := readPIDs(t, filepath.Dir(work))
	if len(pids) != 2 {
		t.Fatalf("pids = %v", pids)
	}
	waitGone(t, pids)
	if res.SessionID != "" {
		t.Logf("session %s", res.SessionID)
	}
}

func TestCancelKillsProcessTree(t *testing.T) {
	r, work := fakeCLI(t, "hang")
	var evs []Event
	ctx, cancel := context.WithCancel(context.Background())
	j := job(ModelClaudeAgent, work, "hang", &evs)
	j.OnEvent = func(e Event) {
		if e.Kind == KindSession {
			cancel() // the CLI is up and its child started: cancel from the UI
		}
	}
	_, err := r.Run(ctx, j)
	if !errors.Is(err, ErrCanceled) {
		t.Fatalf("err = %v", err)
	}
	waitGone(t, readPIDs(t, filepath.Dir(work)))
}

func readPIDs(t *testing.T, dir string) []int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "pids"))
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, f := range strings.Fields(string(b)) {
		n, _ := strconv.Atoi(f)
		out = append(out, n)
	}
	return out
}

// waitGone polls until the processes are gone (reaping is asynchronous);
// the test fails if they are still alive after 10 s.
func waitGone(t *testing.T, pids []int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for _, pid := range pids {
		for alive(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("process %d is still running after the run ended", pid)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

func TestWorktreeNeedsGitRepo(t *testing.T) {
	r, work := fakeCLI(t, "argv")
	var evs []Event
	j := job(ModelCodexAgent, work, "x", &evs)
	j.Worktree = true
	_, err := r.Run(context.Background(), j)
	if !errors.Is(err, ErrNotGitRepo) || !strings.Contains(err.Error(), "git init") {
		t.Fatalf("err = %v", err)
	}
	if ents, _ := os.ReadDir(filepath.Join(filepath.Dir(work), "worktrees")); len(ents) != 0 {
		t.Fatalf("worktrees left: %v", ents)
	}
}

// A failing worktree run still saves its changes on the branch and
// removes the worktree.
func TestWorktreeCleanedUpOnFailure(t *testing.T) {
	r, work := fakeCLI(t, "exit3")
	gitRepo(t, work)
	var evs []Event
	j := job(ModelClaudeAgent, work, "x", &evs)
	j.Worktree, j.ID = true, "fail1"
	res, err := r.Run(context.Background(), j)
	if err == nil {
		t.Fatal("run did not fail")
	}
	if ents, _ := os.ReadDir(filepath.Join(filepath.Dir(work), "worktrees")); len(ents) != 0 {
		t.Fatalf("worktrees left: %v", ents)
	}
	out, _ := gitCmd(context.Background(), os.Environ(), work, "branch", "--list", "osf/*")
	if res.Branch != "" || strings.TrimSpace(out) != "" {
		t.Fatalf("an empty run branch was kept: %q %q", res.Branch, out)
	}
	if !slices.Contains(res.Progress, "No files were changed") {
		t.Errorf("progress %q", res.Progress)
	}
}

// A cancel that lands before the CLI even started is a cancel, not a
// broken binary.
func TestCancelBeforeStart(t *testing.T) {
	r, work := fakeCLI(t, "argv")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var evs []Event
	_, err := r.Run(ctx, job(ModelClaudeAgent, work, "x", &evs))
	if !errors.Is(err, ErrCanceled) {
		t.Fatalf("err = %v", err)
	}
}
