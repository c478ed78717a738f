//go:build linux

package chat

import (
	"context"
	"github.com/osfoundry/desktop/backend/runs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/testkit/procs"
)

// fakePID is the fake CLI's pid ("slow" mode writes it when it starts).
func (r *rig) fakePID(t *testing.T) int {
	t.Helper()
	var pid int
	waitUntil(t, "the fake CLI to start", func() bool {
		b, err := os.ReadFile(filepath.Join(r.dir, "pid"))
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		return err == nil && pid > 0
	})
	return pid
}

// procState is pid's state letter ("T" stopped), "gone" when it has no
// /proc entry.
func procState(pid int) string {
	if s := procs.State(pid); s != "" {
		return s
	}
	return "gone"
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(15 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// A chat's run pauses by the chat's id: the CLI is stopped, the card sits
// in Paused with its why line, and once resumed the answer arrives.
func TestPauseAndResumeChatRun(t *testing.T) {
	r := newRig(t, "slow", "All fixed")
	ctx := context.Background()
	c := chatWithWorker(t, r)
	run, err := r.svc.Send(ctx, c.ID, "fix it")
	must(t, err)
	pid := r.fakePID(t)
	if card := r.card(t, c.ID); card.State != runs.StateRunning || !card.CanPause {
		t.Errorf("running card = %+v", card)
	}
	must(t, r.svc.Pause(c.ID))
	waitUntil(t, "the CLI to stop", func() bool { return procState(pid) == "T" })
	card := r.card(t, c.ID)
	if card.State != runs.StatePaused || card.Why != "Paused — Claude Code is frozen until you resume it" || !card.CanPause {
		t.Errorf("paused card = %+v", card)
	}
	must(t, r.svc.Pause(run.ID)) // already paused: nothing to do
	time.Sleep(300 * time.Millisecond)
	if procState(pid) != "T" || !r.svc.chatRunning(c.ID) {
		t.Fatalf("the paused run went on: state %s", procState(pid))
	}
	must(t, r.svc.Resume(run.ID))
	if s := r.card(t, c.ID).State; s != runs.StateRunning {
		t.Errorf("resumed card shows %s", s)
	}
	r.svc.Wait(run.ID)
	got, err := r.svc.GetRun(ctx, run.ID)
	must(t, err)
	if got.State != runs.StateDone || got.Text != "All fixed" {
		t.Errorf("resumed run = %+v", got)
	}
	if err := r.svc.Pause(c.ID); err == nil || !strings.Contains(err.Error(), "no run in progress") {
		t.Errorf("pausing a chat with nothing running: %v", err)
	}
}

// A paused chat can be ended: its frozen run is cancelled and the chat
// goes to Done. A running one still cannot.
func TestEndPausedChat(t *testing.T) {
	r := newRig(t, "slow", "never")
	ctx := context.Background()
	c := chatWithWorker(t, r)
	run, err := r.svc.Send(ctx, c.ID, "fix it")
	must(t, err)
	pid := r.fakePID(t)
	if err := r.svc.EndChat(ctx, c.ID); err == nil || !strings.Contains(err.Error(), "Pause it first") {
		t.Fatalf("ending a running chat: %v", err)
	}
	must(t, r.svc.Pause(c.ID))
	waitUntil(t, "the CLI to stop", func() bool { return procState(pid) == "T" })
	must(t, r.svc.EndChat(ctx, c.ID))
	if r.svc.chatRunning(c.ID) {
		t.Error("the paused run is still active after End chat")
	}
	waitUntil(t, "the CLI to end", func() bool { return syscall.Kill(pid, 0) != nil || procState(pid) == "Z" })
	if s := r.card(t, c.ID).State; s != runs.StateDone {
		t.Errorf("ended chat shows %s", s)
	}
	got, _ := r.svc.GetRun(ctx, run.ID)
	if got.State != runs.StateFailed || !strings.Contains(got.Error, "cancelled") {
		t.Errorf("the paused run = %+v", got)
	}
}
