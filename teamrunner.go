package main

import (
	"context"

	"github.com/osfoundry/desktop/backend/teamclient"
	"github.com/osfoundry/desktop/backend/teamrunner"
)

// teamRunExec does a team run with the app's run engine in the synced
// project's local workspace (see teamrunner). The engine and the replica
// are read when a run comes, once the app has them.
func teamRunExec(a *App) teamclient.RunExec {
	return func(ctx context.Context, run teamclient.TeamRun, progress func(string)) (string, error) {
		return teamrunner.Exec(a.work.Orchestrator, a.replica)(ctx, run, progress)
	}
}
