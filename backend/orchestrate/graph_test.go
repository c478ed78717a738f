package orchestrate

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/roles"
	"github.com/osfoundry/desktop/backend/runs"
)

var bg = context.Background()

func TestGraphOrderAndFanOut(t *testing.T) {
	f := newFake()
	m := New(f, f)
	defer m.Close()
	g := Graph{Task: "Ship the launch page", Stages: []Stage{
		{{Role: "Researcher"}},
		{{Role: "Worker", Task: "part A"}, {Role: "Worker", Task: "part B"}},
		{{Role: "Reviewer"}},
	}}
	o := runs.Origin{Source: "bridge:p", Depth: 1}
	st, err := m.StartGraph(bg, "me", g, o, nil)
	must(t, err)
	if st.Kind != KindGraph || st.State != StateRunning || len(st.Steps) != 4 {
		t.Fatalf("start status = %+v", st)
	}

	r1 := f.next(t)
	if r1.t.Role != "Researcher" || r1.t.Origin != o {
		t.Fatalf("first run = %+v", r1.t)
	}
	if n, _ := f.count(); n != 1 {
		t.Fatalf("%d runs started while stage 1 was going, want 1", n)
	}
	f.finish(r1, "facts: the page needs a price table", true)

	a, b := f.next(t), f.next(t)
	if _, active := f.count(); active != 2 {
		t.Fatalf("stage 2 has %d runs going at once, want 2 (fan-out)", active)
	}
	parts := map[string]bool{}
	for _, r := range []*fakeRun{a, b} {
		if r.t.Role != "Worker" || !strings.Contains(r.t.Task, "facts: the page needs a price table") || !strings.HasPrefix(r.t.Task, "Ship the launch page") {
			t.Fatalf("stage 2 run = %+v", r.t)
		}
		parts[r.t.Task[strings.Index(r.t.Task, "Your part: ")+11:][:6]] = true
	}
	if !parts["part A"] || !parts["part B"] {
		t.Fatalf("stage 2 parts = %v", parts)
	}
	if n, _ := f.count(); n != 3 {
		t.Fatalf("%d runs started before stage 2 ended, want 3", n)
	}
	f.finish(a, "answer one", true)
	f.finish(b, "answer two", true)

	r4 := f.next(t)
	for _, want := range []string{"## Stage 1 — Researcher (run run-1)", "## Stage 2 — Worker", "answer one", "answer two"} {
		if !strings.Contains(r4.t.Task, want) {
			t.Errorf("stage 3 prompt lacks %q", want)
		}
	}
	if r4.t.Role != "Reviewer" {
		t.Fatalf("stage 3 prompt = %q", r4.t.Task)
	}
	f.finish(r4, "LGTM", true)

	st = wait(t, m, "me", st.ID)
	if st.State != StateDone || st.Answer != "LGTM" {
		t.Fatalf("end status = %+v", st)
	}
	wantStages := []int{1, 2, 2, 3}
	for i, s := range st.Steps {
		if s.Stage != wantStages[i] || s.State != StateDone || s.RunID == "" {
			t.Errorf("step %d = %+v", i, s)
		}
	}
}

func TestGraphFailedStageSkipsTheRest(t *testing.T) {
	f := newFake()
	m := New(f, f)
	defer m.Close()
	st, err := m.StartGraph(bg, "me", Graph{Task: "x"}, runs.Origin{}, nil)
	must(t, err)
	f.finish(f.next(t), "", false)
	st = wait(t, m, "me", st.ID)
	if st.State != StateFailed || !strings.Contains(st.Error, "stage 1 did not finish: Researcher (failed)") {
		t.Fatalf("status = %+v", st)
	}
	if got := []string{st.Steps[1].State, st.Steps[2].State}; !reflect.DeepEqual(got, []string{StateSkipped, StateSkipped}) {
		t.Errorf("later steps = %v", got)
	}
	if n, _ := f.count(); n != 1 {
		t.Errorf("%d runs started, want 1", n)
	}
}

func TestGraphCancelMidway(t *testing.T) {
	f := newFake()
	m := New(f, f)
	defer m.Close()
	g := Graph{Task: "x", Stages: []Stage{{{Role: "Researcher"}}, {{Role: "Worker"}, {Role: "Worker"}}, {{Role: "Reviewer"}}}}
	st, err := m.StartGraph(bg, "me", g, runs.Origin{}, nil)
	must(t, err)
	f.finish(f.next(t), "facts", true)
	a, b := f.next(t), f.next(t)
	if _, err := m.Cancel("someone else", st.ID); err == nil {
		t.Fatal("another caller cancelled the graph")
	}
	st, err = m.Cancel("me", st.ID)
	must(t, err)
	if !a.cancelled || !b.cancelled {
		t.Errorf("running steps not cancelled: %v %v", a.cancelled, b.cancelled)
	}
	if st.State != StateCancelled {
		t.Errorf("state = %s", st.State)
	}
	want := []string{StateDone, StateCancelled, StateCancelled, StateSkipped}
	for i, s := range st.Steps {
		if s.State != want[i] {
			t.Errorf("step %d state %s, want %s", i, s.State, want[i])
		}
	}
	if n, _ := f.count(); n != 3 {
		t.Errorf("%d runs started, want 3 (no Reviewer after cancel)", n)
	}
}

func TestGraphValidation(t *testing.T) {
	f := newFake()
	m := New(f, f)
	defer m.Close()
	five := Stage{{Role: "Worker"}, {Role: "Worker"}, {Role: "Worker"}, {Role: "Worker"}, {Role: "Worker"}}
	tests := []struct {
		name string
		g    Graph
		want string
	}{
		{"no task", Graph{}, "task is required"},
		{"unknown role", Graph{Task: "x", Stages: []Stage{{{Role: "Janitor"}}}}, `stage 1: unknown role "Janitor"`},
		{"empty stage", Graph{Task: "x", Stages: []Stage{{}}}, "stage 1 is empty"},
		{"wide stage", Graph{Task: "x", Stages: []Stage{five}}, "at most 4 run side by side"},
		{"too many stages", Graph{Task: "x", Stages: make([]Stage, 7)}, "at most 6 stages"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := m.StartGraph(bg, "me", tc.g, runs.Origin{}, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	f.checkErr = roles.ErrNoModel
	if _, err := m.StartGraph(bg, "me", Graph{Task: "x"}, runs.Origin{}, nil); err != roles.ErrNoModel {
		t.Errorf("a role that cannot run: %v", err)
	}
	if n, _ := f.count(); n != 0 {
		t.Errorf("%d runs started by invalid graphs", n)
	}
}

func TestStageJSON(t *testing.T) {
	tests := []struct {
		name, in string
		want     []Stage
		err      bool
	}{
		{"names", `["Researcher","Reviewer"]`, []Stage{{{Role: "Researcher"}}, {{Role: "Reviewer"}}}, false},
		{"step", `[{"role":"Worker","task":"a"}]`, []Stage{{{Role: "Worker", Task: "a"}}}, false},
		{"fan-out", `[["Worker",{"role":"Document Agent","task":"docs"}]]`, []Stage{{{Role: "Worker"}, {Role: "Document Agent", Task: "docs"}}}, false},
		{"number", `[3]`, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []Stage
			err := json.Unmarshal([]byte(tc.in), &got)
			if (err != nil) != tc.err || (!tc.err && !reflect.DeepEqual(got, tc.want)) {
				t.Fatalf("got %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}
