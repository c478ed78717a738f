package orchestrate_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/board"
	"github.com/osfoundry/desktop/backend/cost"
	"github.com/osfoundry/desktop/backend/orchestrate"
)

type fakeJobs struct {
	jobs      []orchestrate.Status
	cancelled []string
}

func (f *fakeJobs) AllJobs() ([]orchestrate.Status, error) { return f.jobs, nil }

func (f *fakeJobs) OnChange(func()) {}

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
		Cost:  cost.Sum(cost.OfRun(0.3), cost.OfRun(0.25)),
		Steps: []orchestrate.Step{child("1", orchestrate.StateDone, "o1"), child("2", orchestrate.StateCancelled, "o2")}}
	// A Worker's spawn_fleet is a Team card too; one run an assistant
	// asked for is not (it is that run's Agent card).
	worker := orchestrate.Status{ID: "fleet_w", Kind: orchestrate.KindFleet, State: orchestrate.StateRunning, StartedBy: "a Worker run",
		StartedAt: 700, Steps: []orchestrate.Step{child("1", orchestrate.StateWaiting, ""), child("2", orchestrate.StateWaiting, "")}}
	single := orchestrate.Status{ID: "run_1", Kind: orchestrate.KindRun, State: orchestrate.StateRunning, Steps: []orchestrate.Step{child("1", orchestrate.StateRunning, "x1")}}
	jobs := &fakeJobs{jobs: []orchestrate.Status{fleet, loop, ended, worker, single}}
	runs := map[string]string{"r2": board.Running, "r3": board.NeedsYou, "l2": board.Running}
	teams := orchestrate.NewBoardSource(jobs, func() map[string]string { return runs })
	b := board.New(t.TempDir(), nil)
	b.Add("orchestrate", teams)
	byID := map[string]board.Card{}
	for _, c := range b.Cards() {
		byID[c.ID] = c
	}
	tests := []struct {
		id, kind, state  string
		children, done   int
		why, link, title string
	}{
		{"fleet_1", board.KindTeam, board.NeedsYou, 3, 1, "1 of 3 done · 1 needs you · 1 running", "/orchestration?job=fleet_1", "Team of 3"},
		{"loop_1", board.KindLoop, board.Running, 2, 1, "iteration 2 · 1 done · 1 running", "/orchestration?job=loop_1", "Loop · polish"},
		{"fleet_0", board.KindTeam, board.Failed, 2, 1, "stopped: spend limit $0.50 reached ($0.55 spent)", "/orchestration?job=fleet_0", "Old team"},
		{"fleet_w", board.KindTeam, board.Running, 2, 0, "0 of 2 done · 2 running", "/orchestration?job=fleet_w", "Fleet of 2"},
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
	// A Team card says its cost by the app's one rule.
	if c := byID["fleet_0"].Cost; c == nil || c.Label() != "subscription · ≈$0.55 at API prices" {
		t.Errorf("the ended team's cost = %+v", c)
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
	runs["r3"] = board.Running
	for _, c := range b.Cards() {
		if c.ID == "fleet_1" && (c.State != board.Running || !strings.Contains(c.Why, "2 running")) {
			t.Errorf("after the approval: %+v", c)
		}
	}
	// Ending a running team from the board cancels its job.
	if err := teams.End("fleet_1"); err != nil || len(jobs.cancelled) != 1 || jobs.cancelled[0] != "fleet_1" {
		t.Errorf("end = %v, cancelled %v", err, jobs.cancelled)
	}
}

type fakePauser struct{ paused, resumed []string }

func (f *fakePauser) Pause(id string) error  { f.paused = append(f.paused, id); return nil }
func (f *fakePauser) Resume(id string) error { f.resumed = append(f.resumed, id); return nil }

// A Team or Loop card can be paused like an Agent card: Pause freezes each
// child run going (not one paused already, not one done), the card lands
// in Paused, from where the board lets it be dropped on Done; Resume
// continues them. An ended job offers no Pause, and without a pauser no
// card does.
func TestTeamCardsPauseTheirRuns(t *testing.T) {
	fleet := orchestrate.Status{ID: "fleet_1", Kind: orchestrate.KindFleet, State: orchestrate.StateRunning, Title: "Team of 3",
		Steps: []orchestrate.Step{child("1", orchestrate.StateDone, "r1"), child("2", orchestrate.StateRunning, "r2"), child("3", orchestrate.StateRunning, "r3")}}
	ended := orchestrate.Status{ID: "loop_0", Kind: orchestrate.KindLoop, State: orchestrate.StateDone, EndedAt: 5,
		Steps: []orchestrate.Step{child("1", orchestrate.StateDone, "l1")}}
	jobs := &fakeJobs{jobs: []orchestrate.Status{fleet, ended}}
	runs := map[string]string{"r2": board.Running, "r3": board.Paused}
	teams := orchestrate.NewBoardSource(jobs, func() map[string]string { return runs })
	card := func(id string) board.Card {
		for _, c := range teams.Cards() {
			if c.ID == id {
				return c
			}
		}
		t.Fatalf("no card %s", id)
		return board.Card{}
	}
	if card("fleet_1").CanPause {
		t.Error("a card offers Pause with nothing to pause its runs")
	}
	if err := teams.Pause("fleet_1"); !errors.Is(err, board.ErrNoPause) {
		t.Errorf("pause without a pauser = %v, want ErrNoPause", err)
	}

	p := &fakePauser{}
	teams.PauseWith(p)
	if !card("fleet_1").CanPause || card("loop_0").CanPause {
		t.Errorf("CanPause: running %v, ended %v", card("fleet_1").CanPause, card("loop_0").CanPause)
	}
	if err := teams.Pause("fleet_1"); err != nil || strings.Join(p.paused, ",") != "r2" {
		t.Errorf("pause = %v, paused %v; want only r2", err, p.paused)
	}
	runs["r2"] = board.Paused
	if c := card("fleet_1"); c.State != board.Paused {
		t.Errorf("with its runs paused the card is %s", c.State)
	}
	if err := teams.Resume("fleet_1"); err != nil || strings.Join(p.resumed, ",") != "r2,r3" {
		t.Errorf("resume = %v, resumed %v", err, p.resumed)
	}
	if err := teams.Pause("loop_0"); !errors.Is(err, board.ErrEnded) {
		t.Errorf("pausing an ended loop = %v, want ErrEnded", err)
	}
	if err := teams.Pause("nope"); !errors.Is(err, board.ErrNoCard) {
		t.Errorf("pausing no job = %v, want ErrNoCard", err)
	}
}
