package board

import (
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/orchestrate"
)

type fakeJobs struct {
	jobs      []orchestrate.Status
	cancelled []string
}

func (f *fakeJobs) AllJobs() ([]orchestrate.Status, error) { return f.jobs, nil }

func (f *fakeJobs) CancelAny(id string) (orchestrate.Status, error) {
	f.cancelled = append(f.cancelled, id)
	return orchestrate.Status{ID: id, State: orchestrate.StateCancelled}, nil
}

func child(id, state, run string) orchestrate.Step {
	return orchestrate.Step{ID: id, Role: "Worker", State: state, RunID: run}
}

// A fleet is a Team card and a loop a Loop card; the card's column is its
// children's combined state by the board's priority (any child needs you
// → the card needs you), it counts its children and says how far they
// are, and the children's own runs are not cards of their own.
func TestTeamAndLoopCards(t *testing.T) {
	fleet := orchestrate.Status{ID: "fleet_1", Kind: orchestrate.KindFleet, State: orchestrate.StateRunning, Title: "Team of 3",
		StartedAt: 1000, Steps: []orchestrate.Step{
			child("1", orchestrate.StateDone, "r1"), child("2", orchestrate.StateRunning, "r2"), child("3", orchestrate.StateRunning, "r3")}}
	loop := orchestrate.Status{ID: "loop_1", Kind: orchestrate.KindLoop, State: orchestrate.StateRunning, Title: "Loop · polish",
		StartedAt: 900, Steps: []orchestrate.Step{child("1", orchestrate.StateDone, "l1"), child("2", orchestrate.StateRunning, "l2")}}
	ended := orchestrate.Status{ID: "fleet_0", Kind: orchestrate.KindFleet, State: orchestrate.StateStopped, Title: "Old team",
		Error: "stopped: spend limit $0.50 reached ($0.55 spent)", StartedAt: 500, EndedAt: 800,
		Steps: []orchestrate.Step{child("1", orchestrate.StateDone, "o1"), child("2", orchestrate.StateCancelled, "o2")}}
	// A Worker's spawn_fleet is a Team card too; one run an assistant
	// asked for is not (it is that run's Agent card).
	worker := orchestrate.Status{ID: "fleet_w", Kind: orchestrate.KindFleet, State: orchestrate.StateRunning, StartedBy: "a Worker run",
		StartedAt: 700, Steps: []orchestrate.Step{child("1", orchestrate.StateWaiting, ""), child("2", orchestrate.StateWaiting, "")}}
	single := orchestrate.Status{ID: "run_1", Kind: orchestrate.KindRun, State: orchestrate.StateRunning, Steps: []orchestrate.Step{child("1", orchestrate.StateRunning, "x1")}}
	jobs := &fakeJobs{jobs: []orchestrate.Status{fleet, loop, ended, worker, single}}
	runs := map[string]string{"r2": Running, "r3": NeedsYou, "l2": Running}
	teams := NewTeams(jobs, func() map[string]string { return runs })
	b := New(t.TempDir(), nil)
	b.Add("orchestrate", teams)
	byID := map[string]Card{}
	for _, c := range b.Cards() {
		byID[c.ID] = c
	}
	tests := []struct {
		id, kind, state  string
		children, done   int
		why, link, title string
	}{
		{"fleet_1", KindTeam, NeedsYou, 3, 1, "1 of 3 done · 1 needs you · 1 running", "/orchestration?job=fleet_1", "Team of 3"},
		{"loop_1", KindLoop, Running, 2, 1, "iteration 2 · 1 done · 1 running", "/orchestration?job=loop_1", "Loop · polish"},
		{"fleet_0", KindTeam, Failed, 2, 1, "stopped: spend limit $0.50 reached ($0.55 spent)", "/orchestration?job=fleet_0", "Old team"},
		{"fleet_w", KindTeam, Running, 2, 0, "0 of 2 done · 2 running", "/orchestration?job=fleet_w", "Fleet of 2"},
	}
	if _, ok := byID["run_1"]; ok {
		t.Error("a single run an assistant asked for has a Team card")
	}
	if r := byID["fleet_w"].Reason; r != "the combined state of its runs; started by a Worker run" {
		t.Errorf("reason = %q", r)
	}
	for _, tc := range tests {
		c, ok := byID[tc.id]
		if !ok {
			t.Fatalf("no card for %s in %+v", tc.id, byID)
		}
		if c.Kind != tc.kind || c.State != tc.state || c.Children != tc.children || c.ChildrenDone != tc.done || c.Why != tc.why || c.Link != tc.link || c.Title != tc.title {
			t.Errorf("card %s = %+v", tc.id, c)
		}
	}
	// The child runs themselves are hidden from the pipeline's agent cards.
	kids := teams.ChildRuns()
	for _, run := range []string{"r1", "r2", "r3", "l1", "l2", "o1"} {
		if !kids[run] {
			t.Errorf("run %s is not known as a child", run)
		}
	}
	if kids["someone-else"] {
		t.Error("a run of no job is hidden")
	}
	// When the needy child gets its answer and runs on, the card follows.
	runs["r3"] = Running
	for _, c := range b.Cards() {
		if c.ID == "fleet_1" && (c.State != Running || !strings.Contains(c.Why, "2 running")) {
			t.Errorf("after the approval: %+v", c)
		}
	}
	// Ending a running team from the board cancels its job.
	if err := teams.End("fleet_1"); err != nil || len(jobs.cancelled) != 1 || jobs.cancelled[0] != "fleet_1" {
		t.Errorf("end = %v, cancelled %v", err, jobs.cancelled)
	}
}
