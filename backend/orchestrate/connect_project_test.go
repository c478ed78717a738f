package orchestrate

import (
	"encoding/json"
	"testing"

	"github.com/osfoundry/desktop/backend/pipeline"
	"github.com/osfoundry/desktop/backend/tools"
)

// A run an assistant starts with request_session_run is bound to the
// project it named (which the Connected endpoint checked before the call),
// so its bridge reaches that project's discussion channel and no other.
func TestAssistantRunIsBoundToItsProject(t *testing.T) {
	f := newFake()
	f.auto = func(pipeline.RoleTask) (string, bool) { return "done", true }
	m := New(f, f)
	defer m.Close()
	var run tools.Tool
	for _, tl := range m.Connect().Tools() {
		if tl.Name == "request_session_run" {
			run = tl
		}
	}
	args, _ := json.Marshal(map[string]any{"project_id": "proj-a", "task": "Summarise the launch in the discussion channel", "wait_seconds": 0})
	res, err := run.Handler(bg, tools.Call{Workspace: "ws-acme", User: "owner", Source: "connect:c1", Tool: "request_session_run", Args: args})
	if err != nil || res.IsError {
		t.Fatalf("request_session_run: %v %s", err, res.Text)
	}
	o := f.next(t).t.Origin
	if o.Project != "proj-a" || o.Workspace != "ws-acme" || o.Source != "connect:c1" || !o.Unattended {
		t.Fatalf("the run's origin is %+v; want it bound to proj-a in ws-acme", o)
	}
}
