package orchestrate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/store"
)

// A fleet started by `osfoundry run` (another Manager on the same
// database, as another process would be) is on the window's list while it
// goes, wakes the window's listeners (the Sessions board), and is
// cancelled from the window by the process running it. A window that
// opens meanwhile leaves it going; once that process is gone the job reads
// failed, saying why.
func TestJobsOfAnotherProcess(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "app.db"))
	must(t, err)
	defer db.Close()
	win, err := openFake(bg, newFake(), db)
	must(t, err)
	defer win.Close()
	changed := make(chan struct{}, 64)
	win.OnChange(func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	})
	cf := newFake()
	cli, err := Open(bg, cf, cf, db)
	must(t, err)
	defer cli.Close()
	terminal := cli.ForPerson(OwnerCLI)
	window := win.ForPerson(OwnerWindow)

	st, err := terminal.StartFleet(bg, FleetRequest{Title: "From the terminal", Tasks: tasks("A", "B")})
	must(t, err)
	cf.next(t)
	cf.next(t)
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("the window's listeners were not told of the terminal's fleet")
	}
	shown := func(id string) Status {
		t.Helper()
		jobs, err := window.List()
		must(t, err)
		for _, j := range jobs {
			if j.ID == id {
				return j
			}
		}
		t.Fatalf("job %s is not on the window's list: %+v", id, jobs)
		return Status{}
	}
	if j := shown(st.ID); j.State != StateRunning || j.Title != "From the terminal" || j.StartedBy != "you, with osfoundry run" {
		t.Fatalf("the terminal's fleet at the window = %+v", j)
	}
	if _, err := window.CancelChild(st.ID, "1"); err == nil || !strings.Contains(err.Error(), "osfoundry run") {
		t.Errorf("cancelling one child of another process's job = %v; want an error saying where it runs", err)
	}

	// Another window opening now leaves the running job alone.
	again, err := openFake(bg, newFake(), db)
	must(t, err)
	again.Close()
	if got, err := terminal.Get(st.ID); err != nil || got.State != StateRunning {
		t.Fatalf("after another Open the terminal's job = %+v, %v", got, err)
	}

	got, err := window.CancelJob(st.ID)
	must(t, err)
	if got.State != StateCancelled {
		t.Fatalf("cancelled from the window: %+v", got)
	}
	if mine, err := terminal.Get(st.ID); err != nil || mine.State != StateCancelled {
		t.Fatalf("the terminal's own view of the cancelled job = %+v, %v", mine, err)
	}

	// The terminal's process ends (killed) while a second job goes.
	st2, err := terminal.StartFleet(bg, FleetRequest{Title: "Cut off", Tasks: tasks("C")})
	must(t, err)
	cf.next(t)
	cli.release()
	if j := shown(st2.ID); j.State != StateFailed || j.Error != errHolderGone || j.Steps[0].State != StateFailed {
		t.Fatalf("a job whose process ended = %+v", j)
	}
	// A process killed before closing leaves its lock file; the next Open
	// removes it.
	left := filepath.Join(filepath.Dir(cli.holdDir), "orchestrate-holders", "4242-1")
	must(t, os.WriteFile(left, nil, 0o600))
	later, err := openFake(bg, newFake(), db)
	must(t, err)
	defer later.Close()
	if _, err := os.Stat(left); err == nil {
		t.Error("a dead process's lock file was left in place")
	}
	if j, err := later.ForPerson(OwnerCLI).Get(st2.ID); err != nil || j.State != StateFailed {
		t.Fatalf("after the next Open the cut-off job = %+v, %v", j, err)
	}
}
