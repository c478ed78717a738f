package orchestrate

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/pipeline"
	"github.com/osfoundry/desktop/backend/runs"
	"github.com/osfoundry/desktop/backend/store"
)

// A job's result is still readable after the app restarted, by its id or
// its run's id, and only by its owner; a job cut off by the quit reads as
// failed.
func TestJobsOutliveTheApp(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "app.db"))
	must(t, err)
	defer db.Close()
	f := newFake()
	m1, err := Open(bg, f, f, db)
	must(t, err)
	done, err := m1.StartRun(bg, "connect:c1", pipeline.RoleTask{Role: "Researcher", Task: "x"}, nil)
	must(t, err)
	f.finish(f.next(t), "the answer", true)
	wait(t, m1, "connect:c1", done.ID)
	cut, err := m1.StartGraph(bg, "connect:c1", Graph{Task: "y"}, runs.Origin{}, nil)
	must(t, err)
	r := f.next(t) // the graph's first step is going when the app "quits"
	// The quit comes after the step's start was written (a crash writes
	// nothing more; here m1 is simply no longer asked).
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		var n int
		must(t, db.QueryRow(`SELECT COUNT(*) FROM orchestrate_job_runs WHERE run_id = ?`, r.id).Scan(&n))
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the running step was never saved")
		}
	}

	m1.release() // the app's process ends: its lock goes with it
	m2, err := openFake(bg, newFake(), db)
	must(t, err)
	defer m2.Close()
	for _, id := range []string{done.ID, done.Steps[0].RunID} {
		st, err := m2.Get("connect:c1", id)
		must(t, err)
		if st.ID != done.ID || st.State != StateDone || st.Answer != "the answer" {
			t.Errorf("read %s after restart: %+v", id, st)
		}
	}
	if _, err := m2.Get("connect:c2", done.ID); err == nil {
		t.Error("another owner read the job after restart")
	}
	st, err := m2.Get("connect:c1", cut.ID)
	must(t, err)
	if st.State != StateFailed || st.Steps[0].State != StateFailed || st.Error == "" {
		t.Errorf("job cut off by the quit: %+v", st)
	}
	m1.Close()
}

// A person's jobs are on the window's list after a restart, as they ended
// (or as cut off by the quit).
func TestPersonJobsAfterARestart(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "app.db"))
	must(t, err)
	defer db.Close()
	f := newFake()
	m1, err := Open(bg, f, f, db)
	must(t, err)
	p1 := m1.ForPerson(OwnerWindow)
	st, err := p1.StartFleet(bg, FleetRequest{Title: "Kept", Tasks: tasks("A")})
	must(t, err)
	f.finish(f.next(t), "did A", true)
	wait(t, m1, OwnerWindow, st.ID)
	m1.Close()

	m2, err := openFake(bg, newFake(), db)
	must(t, err)
	defer m2.Close()
	jobs, err := m2.ForPerson(OwnerWindow).List()
	must(t, err)
	if len(jobs) != 1 || jobs[0].ID != st.ID || jobs[0].Title != "Kept" || jobs[0].State != StateDone || jobs[0].Steps[0].Answer != "did A" {
		t.Fatalf("after restart: %+v", jobs)
	}
	if got, err := m2.ForPerson(OwnerWindow).Get(st.ID); err != nil || got.StartedBy != "you" {
		t.Fatalf("get after restart = %+v, %v", got, err)
	}
}
