package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/osfoundry/desktop/backend/orchestrate"
	"github.com/osfoundry/desktop/backend/pipeline"
	"github.com/osfoundry/desktop/backend/runs"
	"github.com/osfoundry/desktop/backend/teamclient"
)

// teamRunExec does a team run with the app's run engine: a Worker run in
// the synced project's local workspace, unattended (a tool that needs the
// person's approval is refused, as for a connected assistant's run), on
// the Sessions board as "Team: <who asked>". It ends when the run ends or
// when the run is no longer this desktop's.
func teamRunExec(a *App) teamclient.RunExec {
	return func(ctx context.Context, run teamclient.TeamRun, progress func(string)) (string, error) {
		ws, err := a.replica.LocalWorkspace(ctx, run.Project)
		if err != nil {
			return "", err
		}
		owner := "team:" + run.ID
		task := strings.Fields(run.Task)
		if len(task) > 8 {
			task = append(task[:8], "…")
		}
		st, err := a.work.Orchestrator.StartRun(ctx, owner, pipeline.RoleTask{Role: "Worker", Task: run.Task,
			Title:  "Team: " + run.Requester + " · " + strings.Join(task, " "),
			Origin: runs.Origin{Source: owner, Workspace: ws, Unattended: true, Depth: runs.MaxDepth, Project: run.Project}}, nil)
		if err != nil {
			return "", err
		}
		progress("running on this desktop")
		end, err := a.work.Orchestrator.Wait(ctx, owner, st.ID)
		if err != nil {
			if ctx.Err() != nil {
				_, _ = a.work.Orchestrator.Cancel(owner, st.ID)
			}
			return "", err
		}
		if end.Error != "" {
			return end.Answer, errors.New(end.Error)
		}
		if end.State != orchestrate.StateDone {
			return end.Answer, fmt.Errorf("the run ended %s", end.State)
		}
		return end.Answer, nil
	}
}
