package pipeline

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
)

// A role run started with a model of its own runs on that model, keeps
// the cost the CLI reported at API prices (what spend limits count), and
// a model that is not a CLI model is refused before anything starts.
func TestStartRoleWithItsOwnModelKeepsTheReportedCost(t *testing.T) {
	r := newRig(t, "ok", "all done")
	ctx := context.Background()
	_, err := r.svc.SetRoleModel(ctx, "Titling", agentcli.ModelClaudeAgent)
	must(t, err)
	_, err = r.svc.AddFolder(ctx, r.folder)
	must(t, err)
	run, err := r.svc.StartRole(ctx, RoleTask{Role: "Titling", Task: "look", Model: agentcli.ModelClaudeChat})
	must(t, err)
	wctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	run, err = r.svc.WaitRun(wctx, run.ID)
	must(t, err)
	if run.Model != agentcli.ModelClaudeChat || run.State != StateDone || run.ReportedCostUSD != 1.5 || run.CostUSD != 0 {
		t.Fatalf("run = model %s state %s reported $%v cost $%v (%s)", run.Model, run.State, run.ReportedCostUSD, run.CostUSD, run.Error)
	}
	if _, err := r.svc.StartRole(ctx, RoleTask{Role: "Titling", Task: "look", Model: "gpt-4o"}); err == nil || !strings.Contains(err.Error(), "not an External AI model") {
		t.Fatalf("a non-CLI model: %v", err)
	}
}
