//go:build linux

package chat

import (
	"context"
	"github.com/osfoundry/desktop/backend/roles"
	"github.com/osfoundry/desktop/backend/runs"
	"strings"
	"testing"
)

// dbState is the run's state as its row records it.
func (r *rig) dbState(t *testing.T, runID string) string {
	t.Helper()
	var st string
	must(t, r.svc.db.QueryRow(`SELECT state FROM pipeline_runs WHERE id = ?`, runID).Scan(&st))
	return st
}

// While a chat's run is frozen, everything that reports it says paused
// (the run, the chat's run list, the chat), the row stays running, and a
// new message is refused with what to do; resumed, it reads running again.
func TestPausedChatRunReadsPaused(t *testing.T) {
	r := newRig(t, "slow", "All fixed")
	ctx := context.Background()
	c := chatWithWorker(t, r)
	run, err := r.svc.Send(ctx, c.ID, "fix it")
	must(t, err)
	pid := r.fakePID(t)
	must(t, r.svc.Pause(c.ID))
	waitUntil(t, "the CLI to stop", func() bool { return procState(pid) == "T" })

	states := func() (run1, list, chat string) {
		got, err := r.svc.GetRun(ctx, run.ID)
		must(t, err)
		d, err := r.svc.GetChat(ctx, c.ID)
		must(t, err)
		if len(d.Runs) != 1 {
			t.Fatalf("chat runs = %+v", d.Runs)
		}
		return got.State, d.Runs[0].State, d.Chat.State
	}
	if a, b, ch := states(); a != runs.StatePaused || b != runs.StatePaused || ch != runs.StatePaused {
		t.Errorf("paused: GetRun %q, chat's run list %q, chat %q; want all %q", a, b, ch, runs.StatePaused)
	}
	if st := r.dbState(t, run.ID); st != runs.StateRunning {
		t.Errorf("the paused run's row says %q; paused must stay in memory", st)
	}
	_, err = r.svc.Send(ctx, c.ID, "and the tests")
	if err == nil || err.Error() != "This chat's run is paused. Resume it, or end the chat." {
		t.Errorf("sending to a paused chat: %v", err)
	}
	d, err := r.svc.GetChat(ctx, c.ID)
	must(t, err)
	if n := len(d.Messages); n != 1 {
		t.Errorf("the refused message was saved: %+v", d.Messages)
	}

	must(t, r.svc.Resume(c.ID))
	if a, b, ch := states(); a != runs.StateRunning || b != runs.StateRunning || ch != runs.StateRunning {
		t.Errorf("resumed: GetRun %q, chat's run list %q, chat %q; want all %q", a, b, ch, runs.StateRunning)
	}
	if _, err := r.svc.Send(ctx, c.ID, "and the tests"); err == nil || !strings.Contains(err.Error(), "still going") {
		t.Errorf("sending to a chat whose run is going: %v", err)
	}
	r.svc.Wait(run.ID)
	if a, b, _ := states(); a != runs.StateDone || b != runs.StateDone {
		t.Errorf("finished: GetRun %q, chat's run list %q", a, b)
	}
}

// An agent run outside a chat pauses by its run id: GetRun and its board
// card say paused, and both go back to running once resumed.
func TestPausedAgentRunReadsPaused(t *testing.T) {
	r := newRig(t, "slow", "Done it")
	ctx := context.Background()
	_, err := r.svc.Roles().AddFolder(ctx, r.folder)
	must(t, err)
	a, err := r.svc.Roles().SaveAgent(ctx, roles.Agent{Name: "Fixer", ModelPreference: "cli:claude:agent", RuntimeRole: "Worker"})
	must(t, err)
	run, err := r.svc.Pipeline().RunAgent(ctx, a.ID, "fix the build", false)
	must(t, err)
	pid := r.fakePID(t)
	must(t, r.svc.Pause(run.ID))
	waitUntil(t, "the CLI to stop", func() bool { return procState(pid) == "T" })
	got, err := r.svc.GetRun(ctx, run.ID)
	must(t, err)
	card := r.card(t, run.ID)
	if got.State != runs.StatePaused || card.State != runs.StatePaused || !card.CanPause ||
		card.Why != "Paused — Claude Code is frozen until you resume it" {
		t.Errorf("paused agent run: GetRun %q, card %+v", got.State, card)
	}
	must(t, r.svc.Resume(run.ID))
	got, err = r.svc.GetRun(ctx, run.ID)
	must(t, err)
	if card := r.card(t, run.ID); got.State != runs.StateRunning || card.State != runs.StateRunning || !card.CanPause {
		t.Errorf("resumed agent run: GetRun %q, card %+v", got.State, card)
	}
	r.svc.Wait(run.ID)
	got, err = r.svc.GetRun(ctx, run.ID)
	must(t, err)
	if got.State != runs.StateDone || got.Text != "Done it" {
		t.Errorf("finished agent run = %+v", got)
	}
}
