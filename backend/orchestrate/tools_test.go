package orchestrate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/pipeline"
	"github.com/osfoundry/desktop/backend/runs"
	"github.com/osfoundry/desktop/backend/tools"
)

func bridgeTool(t *testing.T, m *Manager, name string) tools.Tool {
	t.Helper()
	for _, tl := range m.BridgeTools() {
		if tl.Name == name {
			return tl
		}
	}
	t.Fatalf("no tool %s", name)
	return tools.Tool{}
}

func TestBridgeToolsMeta(t *testing.T) {
	nf := newFake()
	m := New(nf, nf)
	defer m.Close()
	var names []string
	for _, tl := range m.BridgeTools() {
		names = append(names, tl.Name)
		if tl.ReadOnly || tl.NeedsApproval || tl.Unattended || tl.Scope != tools.ScopeRun || !json.Valid(tl.InputSchema) {
			t.Errorf("%s meta = %+v", tl.Name, tl.Meta)
		}
	}
	if strings.Join(names, ",") != strings.Join(runs.OrchestrationTools, ",") {
		t.Errorf("tools %v, pipeline offers %v", names, runs.OrchestrationTools)
	}
}

func TestBridgeDepthGuard(t *testing.T) {
	f := newFake()
	f.auto = func(rt pipeline.RoleTask) (string, bool) { return "did " + rt.Task, true }
	m := New(f, f)
	defer m.Close()
	f.parent("top", 0)
	f.parent("child", 1)
	fleet := bridgeTool(t, m, "spawn_fleet").Handler
	args := json.RawMessage(`{"task":"count the TODOs","count":2,"wait_seconds":10}`)
	tests := []struct {
		name, source, want string
		ok                 bool
	}{
		{"person's run", "bridge:top", `"state": "done"`, true},
		{"run started by a tool", "bridge:child", "depth limit 1", false},
		{"ended run", "bridge:gone", "no longer running", false},
		{"not a bridge", "connect:c1", "only from a pipeline run", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before, _ := f.count()
			res, err := fleet(bg, tools.Call{Tool: "spawn_fleet", Source: tc.source, Workspace: "ws", User: "u", Folder: "/work/x", Watched: true, Args: args})
			must(t, err)
			after, _ := f.count()
			if res.IsError == tc.ok || !strings.Contains(res.Text, tc.want) {
				t.Fatalf("result %+v, want ok=%v with %q", res, tc.ok, tc.want)
			}
			if tc.ok != (after == before+2) {
				t.Errorf("%d runs started", after-before)
			}
		})
	}
	// The fleet's runs are one deeper and bound like their starter.
	for _, r := range f.runs {
		want := runs.Origin{Source: "bridge:top", Workspace: "ws", User: "u", Depth: 1, Folder: "/work/x"}
		if r.t.Origin != want || r.t.Role != "Worker" {
			t.Errorf("child run %+v, want origin %+v", r.t, want)
		}
	}
}

func TestBridgeJobEndsWithItsRun(t *testing.T) {
	f := newFake()
	m := New(f, f)
	defer m.Close()
	parentDone := f.parent("top", 0)
	res, err := bridgeTool(t, m, "graph_run").Handler(bg, tools.Call{Source: "bridge:top", Watched: true,
		Args: json.RawMessage(`{"task":"x","stages":["Researcher","Reviewer"],"wait_seconds":0}`)})
	must(t, err)
	var st Status
	must(t, json.Unmarshal([]byte(res.Text), &st))
	if res.IsError || st.Kind != KindGraph || st.State != StateRunning {
		t.Fatalf("start = %s", res.Text)
	}
	r := f.next(t)
	close(parentDone) // the Worker that started the graph ended
	st = wait(t, m, "bridge:top", st.ID)
	if !r.cancelled || st.State != StateCancelled || st.Steps[1].State != StateSkipped {
		t.Fatalf("after the starter ended: cancelled=%v %+v", r.cancelled, st)
	}
	// Reading it later, by id, from the same run's bridge.
	res, err = bridgeTool(t, m, "graph_run").Handler(bg, tools.Call{Source: "bridge:top", Args: json.RawMessage(`{"id":"` + st.ID + `"}`)})
	must(t, err)
	if res.IsError || !strings.Contains(res.Text, `"state": "cancelled"`) {
		t.Errorf("read back = %+v", res)
	}
	res, _ = bridgeTool(t, m, "graph_run").Handler(bg, tools.Call{Source: "bridge:other", Args: json.RawMessage(`{"id":"` + st.ID + `"}`)})
	if !res.IsError || !strings.Contains(res.Text, "no such job") {
		t.Errorf("another run read the graph: %+v", res)
	}
}

func TestLoopRunTool(t *testing.T) {
	f := newFake()
	n := 0
	f.auto = func(pipeline.RoleTask) (string, bool) {
		n++
		if n == 2 {
			return "finished\nDONE", true
		}
		return "halfway", true
	}
	m := New(f, f)
	defer m.Close()
	f.parent("top", 0)
	res, err := bridgeTool(t, m, "loop_run").Handler(bg, tools.Call{Source: "bridge:top", Watched: true,
		Args: json.RawMessage(`{"task":"fix the tests","max":4}`)})
	must(t, err)
	var st Status
	must(t, json.Unmarshal([]byte(res.Text), &st))
	if st.State != StateDone || len(st.Steps) != 2 || st.Answer != "finished\nDONE" {
		t.Fatalf("loop_run = %s", res.Text)
	}
}
