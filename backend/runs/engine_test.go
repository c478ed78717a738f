//go:build !windows

package runs_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/chat"
	"github.com/osfoundry/desktop/backend/runs"
	"github.com/osfoundry/desktop/backend/store"
)

// fakeClaude answers like the real CLI's stream-json ("ok"), or starts and
// never ends ("hang") so a test can cancel it.
const fakeClaude = `#!/bin/sh
if [ "$1" = "--version" ]; then echo '2.1.328 (Claude Code)'; exit 0; fi
echo '{"type":"system","subtype":"init","session_id":"sess-1"}'
case "$FAKE_MODE" in
ok)
  echo '{"type":"result","subtype":"success","is_error":false,"result":"All done.","session_id":"sess-1","total_cost_usd":0.25,"usage":{"input_tokens":5,"output_tokens":2}}'
  ;;
hang)
  exec sleep 300
  ;;
esac
`

type rig struct {
	db     *sql.DB
	runner *agentcli.Runner
	folder string
	mu     sync.Mutex
	ended  []runs.Outcome
}

// newRig makes a database with the runs' table (the pipeline's
// migrations create it) and a runner whose claude is fakeClaude in mode.
func newRig(t *testing.T, mode string) *rig {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	folder := filepath.Join(dir, "work")
	for _, d := range []string{bin, folder} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(fakeClaude), 0o755); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(filepath.Join(dir, "app.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	runner := agentcli.NewRunner(agentcli.RunnerOptions{Env: agentcli.Env{Home: dir, Path: bin,
		Environ: []string{"PATH=" + bin + ":/usr/bin:/bin", "FAKE_MODE=" + mode}}})
	p, err := chat.New(context.Background(), chat.Options{DB: db, Runner: runner})
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	return &rig{db: db, runner: runner, folder: folder}
}

func (r *rig) engine(t *testing.T) *runs.Engine {
	t.Helper()
	e, err := runs.New(context.Background(), runs.Options{DB: r.db, Runner: r.runner})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	return e
}

func (r *rig) spec(t *testing.T) runs.Spec {
	t.Helper()
	m, err := agentcli.ParseModel(agentcli.ModelClaudeAgent)
	if err != nil {
		t.Fatal(err)
	}
	return runs.Spec{Title: "Worker · look", Model: m, Role: "Worker", Folder: r.folder,
		Turns: []agentcli.Turn{{Role: "user", Text: "look"}},
		Ended: func(_ context.Context, o runs.Outcome) error {
			r.mu.Lock()
			r.ended = append(r.ended, o)
			r.mu.Unlock()
			return nil
		}}
}

func wait(t *testing.T, e *runs.Engine, id string) runs.Run {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	run, err := e.WaitRun(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// A started run is recorded as running at once, and at its end keeps the
// answer, the CLI session and the cost the CLI reported, and tells its
// owner exactly once.
func TestStartRecordsTheAnswerSessionAndCost(t *testing.T) {
	r := newRig(t, "ok")
	e := r.engine(t)
	run, err := e.Start(context.Background(), r.spec(t))
	if err != nil {
		t.Fatal(err)
	}
	if run.ID == "" || run.State != runs.StateRunning || run.Title != "Worker · look" {
		t.Fatalf("started run = %+v", run)
	}
	got := wait(t, e, run.ID)
	if got.State != runs.StateDone || got.Text != "All done." || got.SessionID != "sess-1" || got.ReportedCostUSD != 0.25 {
		t.Fatalf("ended run = state %s text %q session %q reported $%v (%s)", got.State, got.Text, got.SessionID, got.ReportedCostUSD, got.Error)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.ended) != 1 || r.ended[0].RunID != run.ID || r.ended[0].State != runs.StateDone {
		t.Fatalf("owner told %+v", r.ended)
	}
}

// Cancel stops a run that would never end and records it failed.
func TestCancelRecordsTheRunFailed(t *testing.T) {
	r := newRig(t, "hang")
	e := r.engine(t)
	run, err := e.Start(context.Background(), r.spec(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Cancel(run.ID); err != nil {
		t.Fatal(err)
	}
	got := wait(t, e, run.ID)
	if got.State != runs.StateFailed || got.Error == "" {
		t.Fatalf("cancelled run = state %s error %q", got.State, got.Error)
	}
}

// A run the app was stopped in (still "running" in the table at start-up)
// is closed by the next engine as failed, with a reason, and its owner is
// told through Options.Interrupted.
func TestNewClosesRunsTheAppWasStoppedIn(t *testing.T) {
	r := newRig(t, "ok")
	if _, err := r.db.Exec(`INSERT INTO pipeline_runs(id, chat_id, title, model, role, folder, state, started_at)
		VALUES('run-old', 'chat-1', 'old', ?, 'Worker', ?, ?, 1)`, agentcli.ModelClaudeAgent, r.folder, runs.StateRunning); err != nil {
		t.Fatal(err)
	}
	var told []runs.Outcome
	e, err := runs.New(context.Background(), runs.Options{DB: r.db, Runner: r.runner,
		Interrupted: func(_ context.Context, o runs.Outcome) error { told = append(told, o); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	got, err := e.Get(context.Background(), "run-old")
	if err != nil {
		t.Fatal(err)
	}
	if got.State != runs.StateFailed || got.Error == "" {
		t.Fatalf("interrupted run = state %s error %q", got.State, got.Error)
	}
	if len(told) != 1 || told[0].RunID != "run-old" || told[0].ChatID != "chat-1" {
		t.Fatalf("owner told %+v", told)
	}
}
