//go:build !windows

package panestate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/osfoundry/desktop/backend/terminal"
)

// Quitting asks about a pane whose program is at work, and not about one
// whose shell waits at its prompt.
func TestBusyNamesThePanesAtWork(t *testing.T) {
	r := newRig(t, Config{})
	env := append(os.Environ(), "PS1=$ ", "HISTFILE=/dev/null")
	start := func(name string) (terminal.Info, *terminal.Pane) {
		dir := filepath.Join(t.TempDir(), name)
		os.Mkdir(dir, 0o700)
		info, err := r.mgr.Create(terminal.Options{Dir: dir, Argv: []string{"bash", "--norc", "--noprofile"}, Env: env, Cols: 100, Rows: 30})
		if err != nil {
			t.Fatal(err)
		}
		p, _ := r.mgr.Get(info.ID)
		r.waitFor("idle at its prompt", info.ID, func(s PaneState) bool { return s.State == "idle" })
		return info, p
	}
	quiet, _ := start("notes")
	busy, p := start("shop-api")
	if got := r.w.Busy(); len(got) != 0 {
		t.Fatalf("two shells at their prompts: busy %+v, want none", got)
	}
	p.Write([]byte("sleep 30\r"))
	r.waitFor("working while sleep runs", busy.ID, func(s PaneState) bool { return s.State == "working" })
	got := r.w.Busy()
	want := BusyPane{ID: busy.ID, Folder: "shop-api", What: "sleep 30", State: "working"}
	if len(got) != 1 || got[0] != want {
		t.Fatalf("busy %+v, want only %+v (not %s)", got, want, quiet.ID)
	}
	// A renamed pane is asked about by its name, as the rail shows it.
	if _, err := r.mgr.Rename(busy.ID, "checkout fix"); err != nil {
		t.Fatal(err)
	}
	want.Name = "checkout fix"
	if got := r.w.Busy(); len(got) != 1 || got[0] != want {
		t.Fatalf("busy after rename %+v, want %+v", got, want)
	}
	p.Write([]byte("\x03"))
}
