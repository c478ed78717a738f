package panestate

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/panehook"
	"github.com/osfoundry/desktop/backend/terminal"
	"github.com/osfoundry/desktop/backend/testkit/fakeprompt"
)

// A paused pane is published as paused, keeps its history of the pause,
// and a prompt report landing while it is frozen rings no notification;
// the same report on a running pane does (so the test can tell).
func TestPausedPaneNeverNotifies(t *testing.T) {
	r := newRig(t, Config{})
	dir := filepath.Join(t.TempDir(), "shop-api")
	os.Mkdir(dir, 0o700)
	start := func() string {
		info, err := r.mgr.Create(terminal.Options{Dir: dir, Argv: []string{"bash", fakeprompt.Script()}, Cols: 100, Rows: 30})
		if err != nil {
			t.Fatal(err)
		}
		r.waitState(info.ID, "idle", time.Time{})
		return info.ID
	}
	prompt := func(id string) {
		r.w.onHook(panehook.Report{Pane: id, Kind: "notify",
			Payload: []byte(`{"notification_type":"permission_prompt","message":"Claude needs your permission to use Bash"}`)})
	}
	paused := start()
	t0 := time.Now()
	if err := r.mgr.Pause(paused); err != nil {
		t.Fatal(err)
	}
	if st := r.waitPaused(paused, true, t0); st.State != "idle" {
		t.Fatalf("paused state = %+v, want the state it had (idle) with paused set", st)
	}
	prompt(paused)
	r.waitState(paused, "blocked", t0)
	if st, _ := r.w.State(paused); !st.Paused {
		t.Fatalf("a report while paused cleared the pause: %+v", st)
	}
	t1 := time.Now()
	if err := r.mgr.Resume(paused); err != nil {
		t.Fatal(err)
	}
	r.waitPaused(paused, false, t1)
	r.mu.Lock()
	n := len(r.notes)
	r.mu.Unlock()
	if n != 0 {
		t.Fatalf("a paused pane rang %d notification(s): %+v", n, r.notes)
	}
	var kinds []string
	for _, h := range r.w.History(paused) {
		kinds = append(kinds, h.State)
	}
	if got := kinds[len(kinds)-3:]; got[0] != PausedState || got[1] != "blocked" || got[2] != Resumed {
		t.Fatalf("history = %v, want …, paused, blocked, resumed", kinds)
	}

	running := start()
	prompt(running)
	r.waitState(running, "blocked", t1)
	end := time.Now().Add(5 * time.Second)
	for time.Now().Before(end) {
		r.mu.Lock()
		n = len(r.notes)
		r.mu.Unlock()
		if n > 0 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if n != 1 || r.notes[0].Session != running {
		t.Fatalf("the running pane's prompt should ring once, got %+v", r.notes)
	}
}

// waitPaused waits for a published state of id with Paused == want.
func (r *rig) waitPaused(id string, want bool, after time.Time) PaneState {
	r.t.Helper()
	end := time.Now().Add(10 * time.Second)
	for time.Now().Before(end) {
		r.mu.Lock()
		for _, c := range r.changes {
			if c.ID == id && c.Paused == want && !c.at.Before(after) {
				r.mu.Unlock()
				return c.PaneState
			}
		}
		r.mu.Unlock()
		time.Sleep(5 * time.Millisecond)
	}
	r.t.Fatalf("pane %s never published paused=%v", id, want)
	return PaneState{}
}
