package orchestrate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/pipeline"
	"github.com/osfoundry/desktop/backend/runs"
	"github.com/osfoundry/desktop/backend/tools"
)

// ConnectRunner offers the run tools of the Connected endpoint
// (request_session_run, run_graph_session, cancel_graph_run, scope
// osfoundry:run) over a Manager. The endpoint checks the connection, the
// scope and the project before a handler runs; the handlers bind each run
// to the connection's workspace and approver, leave it unattended (a tool
// that needs approval is refused at once: nobody at the machine asked for
// the run) and let only the connection that started a job read or cancel
// it.
type ConnectRunner struct{ m *Manager }

var _ connect.Runner = ConnectRunner{}

// Connect returns the endpoint's run tools over m.
func (m *Manager) Connect() ConnectRunner { return ConnectRunner{m: m} }

const projectProp = `"project_id":{"type":"string","description":"A granted project the run is for (from list_granted_resources); its approver must be able to edit it."}`

// Tools lists the run tools.
func (r ConnectRunner) Tools() []tools.Tool {
	runMeta := func(name, desc, props string, destructive bool) tools.Meta {
		return tools.Meta{Name: name, Description: desc, Scope: tools.ScopeRun, Destructive: destructive,
			InputSchema: json.RawMessage(`{"type":"object","properties":{` + props + `},"additionalProperties":false}`)}
	}
	wait := `"wait_seconds":{"type":"integer","minimum":0,"maximum":110,"description":"How long to wait for the result before answering (default 0: answer once started)."}`
	return []tools.Tool{
		{Meta: runMeta("request_session_run",
			"Start a session run on the owner's machine: a pipeline role (Worker, Researcher, Document Agent, Reviewer) works on the task in the owner's local folder. Returns the run id and its state; call again with run_id to read the state and, once it ends, the answer. Tools that need the owner's approval are refused in these runs.",
			projectProp+`,"role":{"type":"string","description":"Default Worker."},"task":{"type":"string"},"title":{"type":"string","description":"Card title on the owner's Sessions board."},
"run_id":{"type":"string","description":"A run id this connection started: read its state instead of starting one."},`+wait, true),
			Handler: r.requestRun},
		{Meta: runMeta("run_graph_session", GraphDescription+" Call again with graph_run_id to read it.",
			projectProp+`,`+graphProps+`,"graph_run_id":{"type":"string","description":"A graph run id this connection started: read its state instead of starting one."},`+wait, true),
			Handler: r.runGraph},
		{Meta: runMeta("cancel_graph_run", "Cancel a graph run (or a session run) this connection started: no further step starts and running steps are stopped.",
			`"graph_run_id":{"type":"string","description":"The id run_graph_session (or request_session_run) returned."}`, true),
			Handler: r.cancel},
	}
}

type runArgs struct {
	ProjectID   string `json:"project_id"`
	Role        string `json:"role"`
	Task        string `json:"task"`
	Title       string `json:"title"`
	RunID       string `json:"run_id"`
	GraphRunID  string `json:"graph_run_id"`
	WaitSeconds *int   `json:"wait_seconds"`
}

// CallTarget says what a call touches: starting a run touches its project
// (so the connection must have been added to it and the approver must be
// able to edit it); reading or cancelling a job touches only the
// connection's own jobs.
func (r ConnectRunner) CallTarget(_ context.Context, tool string, args json.RawMessage) (connect.Target, error) {
	var a runArgs
	if err := decode(args, &a); err != nil {
		return connect.Target{}, err
	}
	switch {
	case tool == "cancel_graph_run":
		if a.GraphRunID == "" {
			return connect.Target{}, errors.New("graph_run_id is required: the id run_graph_session returned")
		}
		return connect.Target{}, nil
	case tool == "request_session_run" && a.RunID != "", tool == "run_graph_session" && a.GraphRunID != "":
		return connect.Target{}, nil
	case a.ProjectID == "":
		return connect.Target{}, fmt.Errorf("project_id is required to start a run; call list_granted_resources to see the projects you can use")
	}
	return connect.Target{Kind: "project", ID: a.ProjectID, Project: a.ProjectID}, nil
}

// origin binds a run an outside assistant started: its connection's
// workspace and approver, the project it named (the endpoint checked the
// connection may use it), nobody watching, no orchestration of its own.
func origin(c tools.Call, project string) runs.Origin {
	return runs.Origin{Source: c.Source, Workspace: c.Workspace, User: c.User, Unattended: true, Depth: runs.MaxDepth,
		Project: project}
}

func (r ConnectRunner) requestRun(ctx context.Context, c tools.Call) (tools.Result, error) {
	var a runArgs
	if err := decode(c.Args, &a); err != nil {
		return tools.ErrorResult(err.Error()), nil
	}
	if a.RunID != "" {
		return r.m.readJob(ctx, c.Source, common{ID: a.RunID, WaitSeconds: a.WaitSeconds}, 0)
	}
	if a.Role == "" {
		a.Role = "Worker"
	}
	// The owner sees on the Sessions board that an assistant asked for it.
	title := "Assistant: " + strings.TrimSpace(a.Title)
	if strings.TrimSpace(a.Title) == "" {
		title = "Assistant: " + a.Role + " · " + firstWords(a.Task, 8)
	}
	st, err := r.m.StartRun(ctx, c.Source, pipeline.RoleTask{Role: a.Role, Task: a.Task, Title: title, Origin: origin(c, a.ProjectID)}, nil)
	if err != nil {
		return tools.ErrorResult(err.Error()), nil
	}
	return r.m.readJob(ctx, c.Source, common{ID: st.ID, WaitSeconds: a.WaitSeconds}, 0)
}

func (r ConnectRunner) runGraph(ctx context.Context, c tools.Call) (tools.Result, error) {
	var a runArgs
	if err := decode(c.Args, &a); err != nil {
		return tools.ErrorResult(err.Error()), nil
	}
	if a.GraphRunID != "" {
		return r.m.readJob(ctx, c.Source, common{ID: a.GraphRunID, WaitSeconds: a.WaitSeconds}, 0)
	}
	var g Graph
	if err := decode(c.Args, &g); err != nil {
		return tools.ErrorResult(err.Error()), nil
	}
	st, err := r.m.StartGraph(ctx, c.Source, g, origin(c, a.ProjectID), nil)
	if err != nil {
		return tools.ErrorResult(err.Error()), nil
	}
	return r.m.readJob(ctx, c.Source, common{ID: st.ID, WaitSeconds: a.WaitSeconds}, 0)
}

func (r ConnectRunner) cancel(ctx context.Context, c tools.Call) (tools.Result, error) {
	var a runArgs
	if err := decode(c.Args, &a); err != nil {
		return tools.ErrorResult(err.Error()), nil
	}
	return r.m.readJob(ctx, c.Source, common{ID: a.GraphRunID, Cancel: true}, 0)
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		return strings.Join(f[:n], " ") + "…"
	}
	return strings.Join(f, " ")
}
