//go:build !windows

package board

import (
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A real pane working in prompt.sh: Pause moves it to Paused with its why
// line and freezes its processes; Resume brings it back to Running; paused
// again it ends through Done with the pause in its summary and no process
// left behind.
func TestTerminalPauseResumeAndEnd(t *testing.T) {
	r := newTerminalRig(t)
	mgr, w, em, b := r.mgr, r.w, r.em, r.b
	info, p, key := r.promptPane(t, "shop-web", "60")
	em.waitColumn(t, key, Idle, time.Time{})
	t0 := time.Now()
	p.Write([]byte("t"))
	em.waitColumn(t, key, Running, t0)
	if c := b.Cards()[0]; !c.CanPause {
		t.Fatalf("a Unix pane's card should offer Pause: %+v", c)
	}

	t1 := time.Now()
	if err := b.Pause(key); err != nil {
		t.Fatal(err)
	}
	em.waitColumn(t, key, Paused, t1)
	c := b.Cards()[0]
	if c.Why != "Paused — Claude Code is frozen until you resume it" {
		t.Errorf("paused why = %q", c.Why)
	}
	if st, _ := w.State(info.ID); !st.Paused || st.State != "working" {
		t.Errorf("rail state while paused = %+v, want paused (was working)", st)
	}
	if err := b.Drop(key, Done); err != nil {
		t.Fatalf("paused card on Done: %v", err)
	}

	t2 := time.Now()
	if err := b.Resume(key); err != nil {
		t.Fatal(err)
	}
	em.waitColumn(t, key, Running, t2)
	if err := b.Drop(key, Done); !errors.Is(err, ErrStillRunning) {
		t.Fatalf("resumed card on Done: %v", err)
	}

	if err := b.Pause(key); err != nil {
		t.Fatal(err)
	}
	leader := p.Pid()
	path, err := b.End(key)
	if err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(path)
	for _, want := range []string{"You paused it", "You resumed it", "Working"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("summary lacks %q:\n%s", want, md)
		}
	}
	if _, err := mgr.Get(info.ID); err == nil {
		t.Error("the ended pane is still open")
	}
	if err := syscall.Kill(leader, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("the paused pane's program %d survived End: %v", leader, err)
	}
	// Its card stays in Done: pausing it says it has ended.
	if err := b.Pause(key); !errors.Is(err, ErrEnded) {
		t.Errorf("pausing an ended session: %v", err)
	}
}
