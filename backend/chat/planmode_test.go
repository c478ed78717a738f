package chat

import (
	"context"
	"sync"
	"testing"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/roles"
)

// A chat started in plan mode binds its runs' bridge in plan mode (the
// executor then refuses every tool that changes things); switching it off
// on the open chat lets the next run's tools change things again. The
// chat says which mode it is in, after a reload too.
func TestPlanModeCarriesToTheRunsBridge(t *testing.T) {
	r := newRig(t, "ok", "Here is the plan.")
	ctx := context.Background()
	access := captureAccess(r)
	_, err := r.svc.Roles().SetRoleModel(ctx, "Worker", "cli:claude:agent")
	must(t, err)
	_, err = r.svc.Roles().AddFolder(ctx, r.folder)
	must(t, err)
	c, err := r.svc.CreateChat(ctx, NewChat{Title: "Plan the release", PlanMode: true})
	must(t, err)
	if !c.PlanMode {
		t.Fatalf("created chat = %+v, want plan mode", c)
	}
	if d, err := r.svc.GetChat(ctx, c.ID); err != nil || !d.Chat.PlanMode {
		t.Fatalf("read back = %+v, %v; want plan mode", d.Chat, err)
	}
	run, err := r.svc.Send(ctx, c.ID, "plan the release")
	must(t, err)
	r.svc.Wait(run.ID)

	off, err := r.svc.SetPlanMode(ctx, c.ID, false)
	must(t, err)
	if off.PlanMode {
		t.Fatalf("after switching off: %+v", off)
	}
	list, err := r.svc.Chats(ctx)
	must(t, err)
	if len(list) != 1 || list[0].PlanMode {
		t.Fatalf("chats = %+v", list)
	}
	run, err = r.svc.Send(ctx, c.ID, "now do it")
	must(t, err)
	r.svc.Wait(run.ID)

	if got := access(); len(got) != 2 || !got[0].PlanMode || got[1].PlanMode {
		t.Fatalf("bridge access of the two runs: %+v; want plan mode on the first only", got)
	}
	if _, err := r.svc.SetPlanMode(ctx, "chat-nope", true); err == nil {
		t.Error("switched plan mode of a chat that does not exist")
	}
}

// An agent run from the Agents screen started in plan mode binds its
// bridge in plan mode; the next run without it does not.
func TestAgentRunInPlanMode(t *testing.T) {
	r := newRig(t, "ok", "Here is the plan.")
	ctx := context.Background()
	access := captureAccess(r)
	_, err := r.svc.Roles().AddFolder(ctx, r.folder)
	must(t, err)
	a, err := r.svc.Roles().SaveAgent(ctx, roles.Agent{Name: "Planner", ModelPreference: "cli:claude:agent", RuntimeRole: "Worker"})
	must(t, err)
	for _, plan := range []bool{true, false} {
		run, err := r.svc.Pipeline().RunAgent(ctx, a.ID, "plan the release", plan)
		must(t, err)
		r.svc.Wait(run.ID)
	}
	if got := access(); len(got) != 2 || !got[0].PlanMode || got[1].PlanMode {
		t.Fatalf("bridge access of the two agent runs: %+v; want plan mode on the first only", got)
	}
}

// captureAccess gives r's runs bridge access and returns what each run got,
// in order.
func captureAccess(r *rig) func() []*agentcli.ToolAccess {
	var mu sync.Mutex
	var access []*agentcli.ToolAccess
	r.svc.o.Tools = func(string, roles.Role) *agentcli.ToolAccess {
		a := &agentcli.ToolAccess{Workspace: "default", User: "local", Channel: "pipeline"}
		mu.Lock()
		access = append(access, a)
		mu.Unlock()
		return a
	}
	return func() []*agentcli.ToolAccess {
		mu.Lock()
		defer mu.Unlock()
		return append([]*agentcli.ToolAccess(nil), access...)
	}
}
