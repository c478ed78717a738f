//go:build !windows

package board

import (
	"errors"
	"os"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/terminal"
)

// A pane without an agent is Running on the board while a program runs in
// front of its shell, and its card says which; it cannot be ended then.
// Back at the prompt it is Idle again.
func TestShellPaneRunningWhileItsProgramRuns(t *testing.T) {
	r := newTerminalRig(t)
	info, err := r.mgr.Create(terminal.Options{Dir: t.TempDir(), Argv: []string{"bash", "--norc", "--noprofile"},
		Env: append(os.Environ(), "PS1=$ "), Cols: 100, Rows: 30})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := r.mgr.Get(info.ID)
	key := "terminal/" + info.ID
	r.em.waitColumn(t, key, Idle, time.Time{})
	t0 := time.Now()
	p.Write([]byte("sleep 30\r"))
	r.em.waitColumn(t, key, Running, t0)
	var card Card
	for _, c := range r.b.Cards() {
		if c.Key == key {
			card = c
		}
	}
	if card.Why != "sleep 30 is running" {
		t.Errorf("running card says %q, want %q", card.Why, "sleep 30 is running")
	}
	if err := r.b.Drop(key, Done); !errors.Is(err, ErrStillRunning) {
		t.Errorf("a pane running a program dropped on Done: %v, want it refused", err)
	}
	t1 := time.Now()
	p.Write([]byte("\x03"))
	r.em.waitColumn(t, key, Idle, t1)
}
