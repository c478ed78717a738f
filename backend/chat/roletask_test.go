package chat

import (
	"context"
	"github.com/osfoundry/desktop/backend/pipeline"
	"github.com/osfoundry/desktop/backend/runs"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
)

// A role run started with a model of its own (parsed by the caller) runs
// on that model and keeps the cost the CLI reported at API prices (what
// spend limits count). Orchestration refuses a model that is not a CLI
// model before anything starts (orchestrate's checkModel).
func TestStartRoleWithItsOwnModelKeepsTheReportedCost(t *testing.T) {
	r := newRig(t, "ok", "all done")
	ctx := context.Background()
	_, err := r.svc.Roles().SetRoleModel(ctx, "Titling", agentcli.ModelClaudeAgent)
	must(t, err)
	_, err = r.svc.Roles().AddFolder(ctx, r.folder)
	must(t, err)
	chat, err := agentcli.ParseModel(agentcli.ModelClaudeChat)
	must(t, err)
	run, err := r.svc.Pipeline().StartRole(ctx, pipeline.RoleTask{Role: "Titling", Task: "look", Model: chat})
	must(t, err)
	wctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	run, err = r.svc.Runs().WaitRun(wctx, run.ID)
	must(t, err)
	if run.Model != agentcli.ModelClaudeChat || run.State != runs.StateDone || run.ReportedCostUSD != 1.5 || run.CostUSD != 0 {
		t.Fatalf("run = model %s state %s reported $%v cost $%v (%s)", run.Model, run.State, run.ReportedCostUSD, run.CostUSD, run.Error)
	}
}
