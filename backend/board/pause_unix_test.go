//go:build !windows

package board

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/backend/panestate"
	"github.com/osfoundry/desktop/backend/terminal"
	"github.com/osfoundry/desktop/backend/testkit/fakeprompt"
	"github.com/osfoundry/desktop/rules"
)

// A real pane working in prompt.sh: Pause moves it to Paused with its why
// line and freezes its processes; Resume brings it back to Running; paused
// again it ends through Done with the pause in its summary and no process
// left behind.
func TestTerminalPauseResumeAndEnd(t *testing.T) {
	reg, _, err := detect.Load(rules.Files, "")
	if err != nil {
		t.Fatal(err)
	}
	mgr := terminal.NewManager(nil)
	w, err := panestate.New(mgr, panestate.Config{Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	w.Start()
	t.Cleanup(func() { mgr.CloseAll(); w.Close() })
	em := &cardsEmitter{}
	b := New(t.TempDir(), em)
	b.Add("terminal", NewTerminal(mgr, w, b.Changed))
	dir := filepath.Join(t.TempDir(), "shop-web")
	os.Mkdir(dir, 0o700)
	info, err := mgr.Create(terminal.Options{Dir: dir, Argv: []string{"bash", fakeprompt.Script()}, Env: append(os.Environ(), "OSF_WORK=60"), Cols: 100, Rows: 30})
	if err != nil {
		t.Fatal(err)
	}
	key := "terminal/" + info.ID
	p, _ := mgr.Get(info.ID)
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
	if err := b.Pause(key); !errors.Is(err, ErrNoCard) {
		t.Errorf("pausing an ended session: %v", err)
	}
}
