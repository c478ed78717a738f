package orchestrate

import (
	"errors"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/pipeline"
	"github.com/osfoundry/desktop/backend/runs"
)

func fleetOf(n int) Fleet {
	var f Fleet
	for i := range n {
		f.Tasks = append(f.Tasks, FleetTask{Role: "Worker", Task: "task " + string(rune('A'+i))})
	}
	return f
}

func TestFleetConcurrencyBound(t *testing.T) {
	f := newFake()
	m := New(f, f)
	defer m.Close()
	fl := fleetOf(4)
	fl.Concurrency = 2
	st, err := m.StartFleet(bg, "me", fl, runs.Origin{}, nil)
	must(t, err)
	running := []*fakeRun{f.next(t), f.next(t)}
	taken := 2 // runs the test has seen start (counting started ones races the next start)
	// End runs one at a time: each end lets exactly one more start.
	for len(running) > 0 {
		if _, active := f.count(); active > 2 {
			t.Fatalf("%d runs going at once, bound is 2", active)
		}
		r := running[0]
		running = running[1:]
		f.finish(r, "did "+r.t.Task, true)
		if taken < 4 {
			running = append(running, f.next(t))
			taken++
		}
	}
	st = wait(t, m, "me", st.ID)
	if st.State != StateDone || f.maxActive != 2 {
		t.Fatalf("state %s, most at once %d (want done, 2)", st.State, f.maxActive)
	}
	for i, s := range st.Steps {
		if s.State != StateDone || s.Answer != "did task "+string(rune('A'+i)) {
			t.Errorf("step %d = %+v", i, s)
		}
	}
}

func TestFleetLimits(t *testing.T) {
	f := newFake()
	m := New(f, f)
	defer m.Close()
	if _, err := m.StartFleet(bg, "me", fleetOf(MaxFleet+1), runs.Origin{}, nil); err == nil || !strings.Contains(err.Error(), "at most 4 runs") {
		t.Errorf("fleet of 5: %v", err)
	}
	if _, err := m.StartFleet(bg, "me", Fleet{Tasks: []FleetTask{{Role: "Worker"}}}, runs.Origin{}, nil); err == nil || !strings.Contains(err.Error(), "task 1 is empty") {
		t.Errorf("empty task: %v", err)
	}
	// Across fleets, at most MaxActive orchestrated runs go at once.
	for _, owner := range []string{"a", "b"} {
		_, err := m.StartFleet(bg, owner, fleetOf(4), runs.Origin{}, nil)
		must(t, err)
	}
	var running []*fakeRun
	for range MaxActive {
		running = append(running, f.next(t))
	}
	for started := MaxActive; len(running) > 0; {
		if _, active := f.count(); active > MaxActive {
			t.Fatalf("%d runs going at once across fleets, bound is %d", active, MaxActive)
		}
		f.finish(running[0], "ok", true)
		running = running[1:]
		if started < 8 {
			running = append(running, f.next(t))
			started++
		}
	}
	if f.maxActive != MaxActive {
		t.Errorf("most at once = %d, want %d", f.maxActive, MaxActive)
	}
}

func TestJobsPerOwner(t *testing.T) {
	f := newFake()
	m := New(f, f)
	defer m.Close()
	var ids []string
	for range MaxJobs {
		st, err := m.StartLoop(bg, "me", Loop{Role: "Worker", Task: "x"}, runs.Origin{}, nil)
		must(t, err)
		ids = append(ids, st.ID)
	}
	if _, err := m.StartLoop(bg, "me", Loop{Role: "Worker", Task: "x"}, runs.Origin{}, nil); !errors.Is(err, ErrBusy) {
		t.Fatalf("job %d: %v, want ErrBusy", MaxJobs+1, err)
	}
	if _, err := m.StartLoop(bg, "other", Loop{Role: "Worker", Task: "x"}, runs.Origin{}, nil); err != nil {
		t.Fatalf("another owner is not limited by mine: %v", err)
	}
	if _, err := m.Get("other", ids[0]); !errors.Is(err, ErrNoJob) {
		t.Errorf("another owner read my job: %v", err)
	}
	_, err := m.Cancel("me", ids[0])
	must(t, err)
	if _, err := m.StartLoop(bg, "me", Loop{Role: "Worker", Task: "x"}, runs.Origin{}, nil); err != nil {
		t.Errorf("after cancelling one: %v", err)
	}
}

func TestLoopTermination(t *testing.T) {
	tests := []struct {
		name      string
		max       int
		answers   []string
		fail      int // round that fails (0 = none)
		wantState string
		wantRuns  int
	}{
		{"done on round 3", 5, []string{"drafted", "tests added", "All green.\n**DONE**"}, 0, StateDone, 3},
		{"done at once", 3, []string{"Done — nothing to change"}, 0, StateDone, 1},
		{"max reached", 2, []string{"not done yet", "still not done"}, 0, StateStopped, 2},
		{"round fails", 4, []string{"step one", ""}, 2, StateFailed, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake()
			var prompts []string
			f.auto = func(rt pipeline.RoleTask) (string, bool) {
				prompts = append(prompts, rt.Task)
				n := len(prompts)
				return tc.answers[n-1], n != tc.fail
			}
			m := New(f, f)
			defer m.Close()
			st, err := m.StartLoop(bg, "me", Loop{Role: "Researcher", Task: "Fix the build", Max: tc.max}, runs.Origin{}, nil)
			must(t, err)
			st = wait(t, m, "me", st.ID)
			if st.State != tc.wantState || len(st.Steps) != tc.wantRuns || len(prompts) != tc.wantRuns {
				t.Fatalf("state %s after %d steps / %d runs; want %s after %d", st.State, len(st.Steps), len(prompts), tc.wantState, tc.wantRuns)
			}
			if len(prompts) > 1 && !strings.Contains(prompts[1], "Your previous round's answer:\n"+tc.answers[0]) {
				t.Errorf("round 2 prompt lacks round 1's answer: %q", prompts[1])
			}
			if !strings.Contains(prompts[0], "end your answer with a line that says DONE") {
				t.Errorf("round 1 prompt does not say how to finish: %q", prompts[0])
			}
		})
	}
	nf := newFake()
	m := New(nf, nf)
	defer m.Close()
	if _, err := m.StartLoop(bg, "me", Loop{Role: "Worker", Task: "x", Max: MaxLoop + 1}, runs.Origin{}, nil); err == nil {
		t.Error("a loop over the maximum started")
	}
}

func TestSaysDone(t *testing.T) {
	tests := []struct {
		answer, marker string
		want           bool
	}{
		{"DONE", "DONE", true},
		{"Fixed it.\n\n**Done.**\n", "DONE", true},
		{"done — tests pass", "DONE", true},
		{"not done yet", "DONE", false},
		{"DONE\nbut one more thing", "DONE", false},
		{"Doneness checked", "DONE", false},
		{"FINISHED", "finished", true},
		{"", "DONE", false},
	}
	for _, tc := range tests {
		if got := SaysDone(tc.answer, tc.marker); got != tc.want {
			t.Errorf("SaysDone(%q, %q) = %v, want %v", tc.answer, tc.marker, got, tc.want)
		}
	}
}
