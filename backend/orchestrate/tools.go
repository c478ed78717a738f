package orchestrate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/runs"
	"github.com/osfoundry/desktop/backend/tools"
)

// Waits. A bridge call waits for the result up to DefaultWait: Codex
// gives an MCP call 60 s by default, Claude Code 120 s (the app's
// --mcp-config). MaxWait keeps any call under Claude's limit; a job goes
// on when a call gives up waiting.
const (
	DefaultWait = 45 * time.Second
	MaxWait     = 110 * time.Second
)

// common are the arguments every orchestration tool takes besides its own.
type common struct {
	ID          string `json:"id"`
	Cancel      bool   `json:"cancel"`
	WaitSeconds *int   `json:"wait_seconds"`
}

const commonProps = `"id":{"type":"string","description":"An id an earlier call returned: read that job's status (and wait for it) instead of starting another."},
"cancel":{"type":"boolean","description":"With id: stop the job and its runs."},
"wait_seconds":{"type":"integer","minimum":0,"maximum":110,"description":"How long to wait for the result before returning the status (default 45). Call again with id to keep waiting."}`

func orchestrationMeta(name, desc, props string) tools.Meta {
	return tools.Meta{Name: name, Description: desc, Scope: tools.ScopeRun,
		// They start runs that work in the folder: writes, not needing a
		// prompt (they do not touch the screen), and only in a run someone
		// watches (Unattended false).
		ReadOnly: false, NeedsApproval: false, Unattended: false,
		InputSchema: json.RawMessage(`{"type":"object","properties":{` + props + `,` + commonProps + `},"additionalProperties":false}`)}
}

// BridgeTools are spawn_fleet, loop_run and graph_run for the executor.
// A run may call them only when its role may orchestrate and it was not
// itself started by one (runs.MayOrchestrate); the bridge allowlist
// says so and the handlers check again.
func (m *Manager) BridgeTools() []tools.Tool {
	return []tools.Tool{
		{Meta: orchestrationMeta("spawn_fleet",
			fmt.Sprintf("Start up to %d pipeline runs in parallel, each a role (default Worker) on its own task, and return their run ids and, once they end, their answers. Runs it starts cannot start more.", MaxFleet),
			`"tasks":{"type":"array","maxItems":4,"items":{"type":"object","properties":{"role":{"type":"string"},"task":{"type":"string"}},"required":["task"],"additionalProperties":false},"description":"One entry per run."},
"role":{"type":"string","description":"Role for tasks that name none: Worker, Researcher, Document Agent, Reviewer."},
"task":{"type":"string","description":"With count: the same task for every run."},
"count":{"type":"integer","minimum":1,"maximum":4},
"concurrency":{"type":"integer","minimum":1,"maximum":4,"description":"Runs going at once (default all)."}`),
			Handler: m.bridge(m.startFleet)},
		{Meta: orchestrationMeta("loop_run",
			fmt.Sprintf("Run one role on a task again and again, each round seeing the last answer, until an answer ends with a line saying DONE (or done_marker) or max rounds (at most %d) ran.", MaxLoop),
			`"role":{"type":"string","description":"Default Worker."},
"task":{"type":"string"},
"max":{"type":"integer","minimum":1,"maximum":5,"description":"Most rounds (default 3)."},
"done_marker":{"type":"string","description":"Word that ends the loop when an answer's last line starts with it (default DONE)."}`),
			Handler: m.bridge(m.startLoop)},
		{Meta: orchestrationMeta("graph_run", GraphDescription, graphProps), Handler: m.bridge(m.startGraph)},
	}
}

// GraphDescription describes a graph run to a model.
const GraphDescription = "Run a small graph of pipeline role steps: stages in sequence, the steps of a stage in parallel, each stage given the answers of the stages before. Default Researcher → Worker → Reviewer. Returns a graph run id and, once it ends, every step's answer."

const graphProps = `"task":{"type":"string","description":"What the graph should achieve; every step sees it."},
"stages":{"type":"array","maxItems":6,"description":"Each stage is a role name, a step {\"role\",\"task\"}, or an array of those run side by side (at most 4), e.g. [\"Researcher\", [{\"role\":\"Worker\",\"task\":\"part A\"},{\"role\":\"Worker\",\"task\":\"part B\"}], \"Reviewer\"]."}`

type starter func(ctx context.Context, owner string, args json.RawMessage, o runs.Origin, until <-chan struct{}) (Status, error)

// bridge wraps a starter for a call from a run's bridge: it finds the
// calling run, applies the depth limit, starts or reads the job, and
// waits for it as asked.
func (m *Manager) bridge(start starter) tools.Handler {
	return func(ctx context.Context, c tools.Call) (tools.Result, error) {
		parent, ok := strings.CutPrefix(c.Source, "bridge:")
		if !ok {
			return tools.ErrorResult(c.Tool + " can be called only from a pipeline run's tools"), nil
		}
		var a common
		if err := decode(c.Args, &a); err != nil {
			return tools.ErrorResult(err.Error()), nil
		}
		if a.ID != "" {
			return m.readJob(ctx, c.Source, a, DefaultWait)
		}
		o, running := m.runs.OriginOf(parent)
		if !running {
			return tools.ErrorResult("the run calling " + c.Tool + " is no longer running"), nil
		}
		if o.Depth >= runs.MaxDepth {
			return tools.ErrorResult(fmt.Sprintf("%s is not available here: this run was itself started by a tool, and runs started that way cannot start more (depth limit %d). Do the work in this run.", c.Tool, runs.MaxDepth)), nil
		}
		child := runs.Origin{Source: c.Source, Workspace: c.Workspace, User: c.User, Unattended: !c.Watched, Depth: o.Depth + 1, Folder: c.Folder}
		st, err := start(ctx, c.Source, c.Args, child, m.runs.Done(parent))
		if err != nil {
			return tools.ErrorResult(err.Error()), nil
		}
		a.ID = st.ID
		return m.readJob(ctx, c.Source, a, DefaultWait)
	}
}

// readJob cancels or waits for a job and renders its status.
func (m *Manager) readJob(ctx context.Context, owner string, a common, def time.Duration) (tools.Result, error) {
	var st Status
	var err error
	if a.Cancel {
		st, err = m.Cancel(owner, a.ID)
	} else {
		wctx, cancel := context.WithTimeout(ctx, waitFor(a.WaitSeconds, def))
		st, err = m.Wait(wctx, owner, a.ID)
		cancel()
	}
	if errors.Is(err, ErrNoJob) {
		return tools.ErrorResult(err.Error()), nil
	}
	if err != nil {
		return tools.Result{}, err
	}
	return tools.JSONResult(st), nil
}

func waitFor(secs *int, def time.Duration) time.Duration {
	if secs == nil {
		return def
	}
	return min(max(time.Duration(*secs)*time.Second, 0), MaxWait)
}

func decode(args json.RawMessage, v any) error {
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	if err := json.Unmarshal(args, v); err != nil {
		return fmt.Errorf("reading arguments: %w", err)
	}
	return nil
}

func (m *Manager) startFleet(ctx context.Context, owner string, args json.RawMessage, o runs.Origin, until <-chan struct{}) (Status, error) {
	var a struct {
		Tasks       []FleetTask `json:"tasks"`
		Role        string      `json:"role"`
		Task        string      `json:"task"`
		Count       int         `json:"count"`
		Concurrency int         `json:"concurrency"`
	}
	if err := decode(args, &a); err != nil {
		return Status{}, err
	}
	if a.Role == "" {
		a.Role = "Worker"
	}
	if a.Count > 0 {
		if a.Task == "" || len(a.Tasks) > 0 {
			return Status{}, errors.New("count goes with task (the same task for every run); or give tasks, one per run")
		}
		if a.Count > MaxFleet {
			return Status{}, fmt.Errorf("a fleet has at most %d runs (asked for %d)", MaxFleet, a.Count)
		}
		for range a.Count {
			a.Tasks = append(a.Tasks, FleetTask{Task: a.Task})
		}
	}
	for i := range a.Tasks {
		if a.Tasks[i].Role == "" {
			a.Tasks[i].Role = a.Role
		}
	}
	return m.StartFleet(ctx, owner, Fleet{Tasks: a.Tasks, Concurrency: a.Concurrency}, o, until)
}

func (m *Manager) startLoop(ctx context.Context, owner string, args json.RawMessage, o runs.Origin, until <-chan struct{}) (Status, error) {
	var a struct {
		Role   string `json:"role"`
		Task   string `json:"task"`
		Max    int    `json:"max"`
		Marker string `json:"done_marker"`
	}
	if err := decode(args, &a); err != nil {
		return Status{}, err
	}
	if a.Role == "" {
		a.Role = "Worker"
	}
	if a.Max == 0 {
		a.Max = 3
	}
	return m.StartLoop(ctx, owner, Loop{Role: a.Role, Task: a.Task, Max: a.Max, Marker: a.Marker}, o, until)
}

func (m *Manager) startGraph(ctx context.Context, owner string, args json.RawMessage, o runs.Origin, until <-chan struct{}) (Status, error) {
	var g Graph
	if err := decode(args, &g); err != nil {
		return Status{}, err
	}
	return m.StartGraph(ctx, owner, g, o, until)
}
