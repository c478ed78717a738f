// Package teamrunner does the team's runs on this desktop: a run a
// teammate or a connected assistant asked for on the team server, claimed
// by teamclient.Runner while the person has "Run work for the team" on,
// runs here with the app's run engine — a Worker run in the synced
// project's local workspace, with this desktop's own Claude Code or Codex,
// unattended (a tool that needs the person's approval is refused, as for a
// connected assistant's run), on the Sessions board as "Team: <who
// asked>". Its answer goes back to whoever asked.
package teamrunner

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

// Engine is the app's run engine as a team run uses it
// (*orchestrate.Manager).
type Engine interface {
	StartRun(ctx context.Context, owner string, t pipeline.RoleTask, until <-chan struct{}) (orchestrate.Status, error)
	Wait(ctx context.Context, owner, id string) (orchestrate.Status, error)
	Cancel(owner, id string) (orchestrate.Status, error)
}

// Places finds where a synced project lives on this desktop
// (*teamclient.Replica).
type Places interface {
	LocalWorkspace(ctx context.Context, project string) (string, error)
}

// Exec does team runs with engine in the projects places finds. It ends
// when the run ends, or when the run is no longer this desktop's (ctx
// ends: its lease lapsed, it was cancelled, the app closes), cancelling
// the run here.
func Exec(engine Engine, places Places) teamclient.RunExec {
	return func(ctx context.Context, run teamclient.TeamRun, progress func(string)) (string, error) {
		ws, err := places.LocalWorkspace(ctx, run.Project)
		if err != nil {
			return "", err
		}
		owner := "team:" + run.ID
		task := strings.Fields(run.Task)
		if len(task) > 8 {
			task = append(task[:8], "…")
		}
		st, err := engine.StartRun(ctx, owner, pipeline.RoleTask{Role: "Worker", Task: run.Task,
			Title:  "Team: " + run.Requester + " · " + strings.Join(task, " "),
			Origin: runs.Origin{Source: owner, Workspace: ws, Unattended: true, Depth: runs.MaxDepth, Project: run.Project}}, nil)
		if err != nil {
			return "", err
		}
		progress("running on this desktop")
		end, err := engine.Wait(ctx, owner, st.ID)
		if err != nil {
			if ctx.Err() != nil {
				_, _ = engine.Cancel(owner, st.ID)
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
