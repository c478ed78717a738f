package teamruns

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/teamauth"
	"github.com/osfoundry/desktop/backend/tools"
)

// ToolRequestRun is the Connected endpoint's run tool on the team server.
const ToolRequestRun = "request_session_run"

// Source offers request_session_run on the server's Connected endpoint
// (connect.Options.Extra, scope osfoundry:run): an assistant asks for a
// run in a project it was given, as the person who approved it, who must
// hold the runner role; a desktop that runs work for the team does it.
type Source struct{ S *Service }

var _ connect.ToolSource = Source{}

type toolArgs struct {
	ProjectID   string `json:"project_id"`
	Task        string `json:"task"`
	RunID       string `json:"run_id"`
	WaitSeconds int    `json:"wait_seconds"`
}

// Tools is request_session_run.
func (a Source) Tools() []tools.Tool {
	return []tools.Tool{{Meta: tools.Meta{
		Name: ToolRequestRun,
		Description: "Start a run in a project: a desktop of the team that runs work for it (Settings → Team → Run work for the team) " +
			"does the task with its own Claude Code or Codex and posts the answer back. Returns the run id and its state; call again " +
			"with run_id (and wait_seconds) to read its progress and, once it ends, the answer. A run whose desktop stops answering " +
			"reads interrupted and is never started again. With no such desktop online you are told at once.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{` +
			`"project_id":{"type":"string","description":"A granted project the run is for (from list_granted_resources)."},` +
			`"task":{"type":"string","description":"What the run should do."},` +
			`"run_id":{"type":"string","description":"A run id this tool returned: read its state instead of starting one."},` +
			`"wait_seconds":{"type":"integer","minimum":0,"maximum":110,"description":"How long to wait for the run to end before answering (default 0)."}` +
			`},"additionalProperties":false}`),
		Scope:       tools.ScopeRun,
		Destructive: true,
		Unattended:  true,
	}, Handler: a.call}}
}

// CallTarget: starting touches the project; reading a run touches only
// the workspace's runs.
func (a Source) CallTarget(_ context.Context, _ string, args json.RawMessage) (connect.Target, error) {
	var in toolArgs
	if err := json.Unmarshal(args, &in); err != nil {
		return connect.Target{}, fmt.Errorf("the arguments are not a JSON object: %v", err)
	}
	if in.RunID != "" {
		return connect.Target{}, nil
	}
	if in.ProjectID == "" {
		return connect.Target{}, errors.New("project_id is required to start a run; call list_granted_resources to see the projects you can use")
	}
	return connect.Target{Kind: "project", ID: in.ProjectID, Project: in.ProjectID}, nil
}

func (a Source) call(ctx context.Context, c tools.Call) (tools.Result, error) {
	var in toolArgs
	if err := json.Unmarshal(c.Args, &in); err != nil {
		return tools.ErrorResult("the arguments are not a JSON object: " + err.Error()), nil
	}
	if c.User == "" {
		return tools.ErrorResult("this connection has no approver yet: finish connecting on the team server's consent page"), nil
	}
	id := in.RunID
	if id == "" {
		r, err := a.S.RequestRun(ctx, c.User, a.S.requester(ctx, c), c.Workspace, Request{Project: in.ProjectID, Task: in.Task})
		if refused := teamauth.HTTPStatus(err); err != nil && refused < 500 {
			return tools.ErrorResult(err.Error()), nil
		}
		if err != nil {
			return tools.Result{}, err
		}
		id = r.ID
	}
	wait := min(max(in.WaitSeconds, 0), 110)
	end := time.Now().Add(time.Duration(wait) * time.Second)
	for {
		r, err := a.S.GetRun(ctx, c.User, c.Workspace, id)
		if refused := teamauth.HTTPStatus(err); err != nil && refused < 500 {
			return tools.ErrorResult(err.Error()), nil
		}
		if err != nil {
			return tools.Result{}, err
		}
		if r.State != "queued" && r.State != "running" || !time.Now().Before(end) {
			return tools.JSONResult(r), nil
		}
		select {
		case <-ctx.Done():
			return tools.JSONResult(r), nil
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// requester names who asked: the assistant, for the person who approved it.
func (s *Service) requester(ctx context.Context, c tools.Call) string {
	var name string
	_ = s.cfg.Pool.QueryRow(ctx, `SELECT COALESCE(NULLIF(name, ''), email) FROM teamauth_people WHERE id = $1`, c.User).Scan(&name)
	who := "an assistant"
	if src := strings.TrimPrefix(c.Source, "connect:"); src != "" && src != c.Source {
		var conn string
		if s.cfg.Pool.QueryRow(ctx, `SELECT display_name FROM connect_connections WHERE id = $1`, src).Scan(&conn) == nil && conn != "" {
			who = conn
		}
	}
	if name == "" {
		return who
	}
	return who + " for " + name
}
