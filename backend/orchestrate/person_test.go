package orchestrate

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/runs"
)

// waitState waits (generously, asserting no speed) until cond holds for
// the job's status.
func waitState(t *testing.T, p *Person, id string, cond func(Status) bool) Status {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		st, err := p.Get(id)
		must(t, err)
		if cond(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("job never reached the state wanted: %+v", st)
		}
	}
}

// ended: a child that is neither waiting nor running (a run the fake
// started may not be recorded as running yet).
func ended(s Step) bool { return s.State != StateWaiting && s.State != StateRunning }

func tasks(prompts ...string) []ChildSpec {
	var out []ChildSpec
	for _, p := range prompts {
		out = append(out, ChildSpec{Role: "Worker", Task: p})
	}
	return out
}

// Cancelling one child of a person's fleet kills only that child's run;
// its siblings go on and finish, and the job ends done, saying one was
// cancelled.
func TestPersonCancelsOneChildSiblingsContinue(t *testing.T) {
	f := newFake()
	m := New(f, f)
	defer m.Close()
	p := m.ForPerson(OwnerWindow)
	st, err := p.StartFleet(bg, FleetRequest{Tasks: tasks("A", "B", "C")})
	must(t, err)
	if st.Kind != KindFleet || st.Title != "Team of 3" || len(st.Steps) != 3 || st.Steps[1].ID != "2" || st.Steps[1].Task != "B" {
		t.Fatalf("start = %+v", st)
	}
	runs := map[string]*fakeRun{}
	for range 3 {
		r := f.next(t)
		runs[r.t.Task] = r
	}
	if o := runs["B"].t.Origin; o.Depth != 1 || o.Unattended {
		t.Fatalf("a person's fleet run has origin %+v: want watched, one deep (it cannot orchestrate)", o)
	}
	st, err = p.CancelChild(st.ID, "2")
	must(t, err)
	if !runs["B"].cancelled || st.Steps[1].State != StateCancelled || st.Steps[1].Error != "cancelled by you" {
		t.Fatalf("after cancel: run cancelled %v, child %+v", runs["B"].cancelled, st.Steps[1])
	}
	if st.State != StateRunning || ended(st.Steps[0]) || ended(st.Steps[2]) {
		t.Fatalf("siblings stopped with the cancelled child: %+v", st)
	}
	f.finish(runs["A"], "did A", true)
	f.finish(runs["C"], "did C", true)
	st = wait(t, m, OwnerWindow, st.ID)
	if st.State != StateDone || st.Steps[0].Answer != "did A" || st.Steps[2].Answer != "did C" || !strings.Contains(st.Note, "1 of 3 runs cancelled by you") {
		t.Fatalf("end = %+v", st)
	}
	if _, err := p.CancelChild(st.ID, "9"); err == nil || !strings.Contains(err.Error(), `no child "9"`) {
		t.Errorf("unknown child: %v", err)
	}
	if _, err := p.CancelChild(st.ID, "1"); err == nil || !strings.Contains(err.Error(), "already ended") {
		t.Errorf("ended child: %v", err)
	}
}

// The spend limit stops the job once the children's reported costs reach
// it: the rest are cancelled and the job says which limit stopped it.
func TestPersonSpendLimitStopsTheJob(t *testing.T) {
	f := newFake()
	m := New(f, f)
	defer m.Close()
	p := m.ForPerson(OwnerWindow)
	st, err := p.StartFleet(bg, FleetRequest{Tasks: tasks("A", "B", "C"), Limits: Limits{MaxSpendUSD: 0.5, Concurrency: 2}})
	must(t, err)
	a, b := f.next(t), f.next(t)
	a.cost = 0.30
	f.finish(a, "did "+a.t.Task, true)
	c := f.next(t) // a slot freed: the third starts
	b.cost = 0.25
	f.finish(b, "did "+b.t.Task, true)
	st = wait(t, m, OwnerWindow, st.ID)
	if st.State != StateStopped || st.Error != "stopped: spend limit $0.50 reached (≈$0.55 at API prices)" || !c.cancelled {
		t.Fatalf("job = %+v (third run cancelled: %v)", st, c.cancelled)
	}
	if st.CostUSD < 0.549 || st.CostUSD > 0.551 {
		t.Errorf("job cost = %v, want 0.55", st.CostUSD)
	}
}

// The time limit stops a job whose child hangs; the child's run is
// cancelled and the job says so.
func TestPersonTimeLimitStopsAHungChild(t *testing.T) {
	f := newFake()
	m := New(f, f)
	defer m.Close()
	p := m.ForPerson(OwnerWindow)
	st, err := p.StartFleet(bg, FleetRequest{Tasks: tasks("hang"), Limits: Limits{MaxSeconds: 1}})
	must(t, err)
	r := f.next(t)
	st = wait(t, m, OwnerWindow, st.ID)
	if st.State != StateStopped || st.Error != "stopped: time limit 1s reached" || !r.cancelled {
		t.Fatalf("job = %+v (run cancelled: %v)", st, r.cancelled)
	}
}

// A loop a person starts needs a stop condition; with a count it runs
// exactly that many iterations, each given the last result.
func TestPersonLoop(t *testing.T) {
	f := newFake()
	m := New(f, f)
	defer m.Close()
	p := m.ForPerson(OwnerWindow)
	if _, err := p.StartLoop(bg, LoopRequest{Role: "Worker", Task: "polish"}); !errors.Is(err, ErrNoStop) {
		t.Fatalf("a loop without until or count: %v", err)
	}
	if _, err := p.StartLoop(bg, LoopRequest{Role: "Worker", Task: "polish", Count: MaxPersonLoop + 1}); err == nil {
		t.Fatal("a loop over the iteration cap started")
	}
	st, err := p.StartLoop(bg, LoopRequest{Role: "Worker", Task: "polish the text", Count: 3})
	must(t, err)
	for i := 1; i <= 3; i++ {
		r := f.next(t)
		if i > 1 && !strings.Contains(r.t.Task, "result "+string(rune('0'+i-1))) {
			t.Fatalf("iteration %d did not see the last result: %s", i, r.t.Task)
		}
		// An answer that says DONE does not end a counted loop early.
		f.finish(r, "result "+string(rune('0'+i))+"\nDONE", true)
	}
	st = wait(t, m, OwnerWindow, st.ID)
	if st.State != StateDone || len(st.Steps) != 3 || st.Answer != "result 3\nDONE" {
		t.Fatalf("loop = %+v", st)
	}
	st, err = p.StartLoop(bg, LoopRequest{Role: "Worker", Task: "fix the tests", Until: "every test passes"})
	must(t, err)
	r := f.next(t)
	if !strings.Contains(r.t.Task, "Stop condition: every test passes") {
		t.Fatalf("the condition is not in the prompt: %s", r.t.Task)
	}
	f.finish(r, "all green\nDONE", true)
	if st = wait(t, m, OwnerWindow, st.ID); st.State != StateDone || len(st.Steps) != 1 {
		t.Fatalf("until loop = %+v", st)
	}
	// With both, whichever comes first: here the count.
	st, err = p.StartLoop(bg, LoopRequest{Role: "Worker", Task: "tidy", Until: "nothing is left", Count: 2})
	must(t, err)
	for i := 1; i <= 2; i++ {
		r := f.next(t)
		if !strings.Contains(r.t.Task, "Stop condition: nothing is left") {
			t.Fatalf("iteration %d lacks the condition: %s", i, r.t.Task)
		}
		f.finish(r, "still some left", true)
	}
	if st = wait(t, m, OwnerWindow, st.ID); st.State != StateDone || len(st.Steps) != 2 {
		t.Fatalf("until-or-count loop = %+v", st)
	}
	// An until loop whose condition never holds stops at its cap and says so.
	st, err = p.StartLoop(bg, LoopRequest{Role: "Worker", Task: "tidy", Until: "nothing is left", MaxIterations: 1})
	must(t, err)
	f.finish(f.next(t), "still some left", true)
	if st = wait(t, m, OwnerWindow, st.ID); st.State != StateStopped || st.Note != `stopped after 1 iterations: the condition "nothing is left" was not met` {
		t.Fatalf("capped loop = %+v", st)
	}
}

// A child that fails at once does not stop its siblings.
func TestPersonFleetChildFailingAtOnce(t *testing.T) {
	f := newFake()
	m := New(f, f)
	defer m.Close()
	p := m.ForPerson(OwnerWindow)
	st, err := p.StartFleet(bg, FleetRequest{Tasks: tasks("A", "B", "C")})
	must(t, err)
	runs := map[string]*fakeRun{}
	for range 3 {
		r := f.next(t)
		runs[r.t.Task] = r
	}
	f.finish(runs["B"], "", false)
	s := waitState(t, p, st.ID, func(s Status) bool {
		return s.Steps[1].State != StateRunning && s.Steps[1].State != StateWaiting
	})
	if s.Steps[1].State != StateFailed || ended(s.Steps[0]) || ended(s.Steps[2]) {
		t.Fatalf("after one failed: %+v", s.Steps)
	}
	f.finish(runs["A"], "did A", true)
	f.finish(runs["C"], "did C", true)
	st = wait(t, m, OwnerWindow, st.ID)
	if st.State != StateFailed || st.Error != "1 of 3 runs did not finish" || st.Steps[0].Answer != "did A" || st.Steps[2].Answer != "did C" {
		t.Fatalf("fleet = %+v", st)
	}
}

// Bad graphs are refused before anything starts, with what to fix.
func TestPersonGraphValidation(t *testing.T) {
	f := newFake()
	m := New(f, f)
	defer m.Close()
	p := m.ForPerson(OwnerWindow)
	step := func(id, role, model string, deps ...string) DAGStep {
		return DAGStep{ID: id, Role: role, Model: model, Task: "do " + id, DependsOn: deps}
	}
	tests := []struct {
		name  string
		steps []DAGStep
		want  string
	}{
		{"cycle", []DAGStep{step("a", "Worker", "", "c"), step("b", "Worker", "", "a"), step("c", "Worker", "", "b")}, "the graph has a cycle: a → c → b → a"},
		{"unknown dependency", []DAGStep{step("a", "Worker", "", "zz")}, `step "a" depends on "zz", which is not a step`},
		{"unknown role", []DAGStep{step("a", "Wizard", "")}, `step "a": unknown role`},
		{"unknown model", []DAGStep{step("a", "Worker", "gpt-9")}, `unknown model "gpt-9"`},
		{"chat model for a tool role", []DAGStep{step("a", "Worker", agentcli.ModelClaudeChat)}, "needs tools"},
		{"duplicate id", []DAGStep{step("a", "Worker", ""), step("a", "Reviewer", "")}, `two steps have the id "a"`},
		{"no prompt", []DAGStep{{ID: "a", Role: "Worker"}}, `step "a" has no prompt`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := p.StartGraph(bg, GraphRequest{Steps: tc.steps})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	if n, _ := f.count(); n != 0 {
		t.Fatalf("%d runs started from refused graphs", n)
	}
	if jobs, _ := p.List(); len(jobs) != 0 {
		t.Fatalf("refused graphs left jobs: %+v", jobs)
	}
}

// A graph runs each step once its dependencies are done, gives it their
// answers, and skips a step whose dependency failed.
func TestPersonGraphOrder(t *testing.T) {
	f := newFake()
	m := New(f, f)
	defer m.Close()
	p := m.ForPerson(OwnerWindow)
	st, err := p.StartGraph(bg, GraphRequest{Task: "Ship v2", Steps: []DAGStep{
		{ID: "research", Role: "Researcher", Task: "find facts"},
		{ID: "a", Role: "Worker", Task: "part A", DependsOn: []string{"research"}},
		{ID: "b", Role: "Worker", Task: "part B", DependsOn: []string{"research"}},
		{ID: "review", Role: "Reviewer", Task: "review", DependsOn: []string{"a", "b"}},
	}})
	must(t, err)
	r := f.next(t)
	if r.t.Role != "Researcher" || !strings.HasPrefix(r.t.Task, "Ship v2") {
		t.Fatalf("first = %+v", r.t)
	}
	if n, _ := f.count(); n != 1 {
		t.Fatalf("%d runs before research ended", n)
	}
	f.finish(r, "fact: 42", true)
	x, y := f.next(t), f.next(t)
	for _, r := range []*fakeRun{x, y} {
		if !strings.Contains(r.t.Task, "fact: 42") {
			t.Fatalf("step did not get its dependency's answer: %s", r.t.Task)
		}
	}
	f.finish(x, "ok", true)
	f.finish(y, "broken", false)
	st = wait(t, m, OwnerWindow, st.ID)
	if st.State != StateFailed || st.Steps[3].State != StateSkipped || !strings.Contains(st.Steps[3].Error, "did not finish") {
		t.Fatalf("graph = %+v", st)
	}
	if n, _ := f.count(); n != 3 {
		t.Fatalf("%d runs, the review should have been skipped", n)
	}
}

// Every change of a job reaches the emitter and the change listeners.
func TestJobChangesAreEmitted(t *testing.T) {
	f := newFake()
	m := New(f, f)
	defer m.Close()
	em := &emitted{}
	m.SetEmitter(em)
	calls := make(chan struct{}, 64)
	m.OnChange(func() { calls <- struct{}{} })
	p := m.ForPerson(OwnerWindow)
	st, err := p.StartFleet(bg, FleetRequest{Tasks: tasks("A")})
	must(t, err)
	r := f.next(t)
	m.RunProgress(r.id, "Using Bash — ls")
	got := waitState(t, p, st.ID, func(s Status) bool { return s.Steps[0].Progress != "" })
	if got.Steps[0].Progress != "Using Bash — ls" {
		t.Fatalf("progress = %q", got.Steps[0].Progress)
	}
	f.finish(r, "ok", true)
	wait(t, m, OwnerWindow, st.ID)
	last := em.last()
	if last.ID != st.ID || last.State != StateDone || last.EndedAt == 0 || len(calls) == 0 {
		t.Fatalf("last event %+v, %d change calls", last, len(calls))
	}
}

type emitted struct {
	mu sync.Mutex
	ch []Status
}

func (e *emitted) Emit(name string, payload any) {
	if st, ok := payload.(Status); ok && name == EventChanged {
		e.mu.Lock()
		e.ch = append(e.ch, st)
		e.mu.Unlock()
	}
}

func (e *emitted) last() Status {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.ch) == 0 {
		return Status{}
	}
	return e.ch[len(e.ch)-1]
}

// The person at the window sees and may cancel every job the app runs,
// also those a Worker run started from its bridge; whose it is is said.
func TestWindowSeesAWorkersFleet(t *testing.T) {
	f := newFake()
	m := New(f, f)
	defer m.Close()
	st, err := m.StartFleet(bg, "bridge:run-0", fleetOf(2), runs.Origin{Source: "bridge:run-0", Depth: 1}, nil)
	must(t, err)
	win := m.ForPerson(OwnerWindow)
	jobs, err := win.List()
	must(t, err)
	if len(jobs) != 1 || jobs[0].ID != st.ID || jobs[0].StartedBy != "a Worker run" {
		t.Fatalf("window lists %+v", jobs)
	}
	if _, err := m.ForPerson(OwnerCLI).Get(st.ID); !errors.Is(err, ErrNoJob) {
		t.Fatalf("another command-line person read it: %v", err)
	}
	f.next(t)
	f.next(t)
	got, err := win.CancelJob(st.ID)
	must(t, err)
	if got.State != StateCancelled {
		t.Fatalf("cancelled = %+v", got)
	}
	all, err := m.AllJobs()
	if err != nil || len(all) != 1 {
		t.Fatalf("all jobs = %+v, %v", all, err)
	}
}
