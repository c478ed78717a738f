package chat

import (
	"context"
	"errors"
	"github.com/osfoundry/desktop/backend/roles"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Out of the box, with Claude Code installed, a first chat runs: a role
// nobody assigned plays on Claude Code (agent mode for tool roles, chat
// mode for text roles), and the Roles list says it is the default.
func TestUnassignedRoleDefaultsToAnInstalledCLI(t *testing.T) {
	r := newRig(t, "ok", "done")
	ctx := context.Background()
	for role, want := range map[string]string{"Worker": "cli:claude:agent", "Researcher": "cli:claude:agent", "Titling": "cli:claude"} {
		got, err := r.svc.Roles().RoleModel(ctx, role)
		if err != nil || got.Model != want || !got.Default {
			t.Errorf("%s: %+v, %v; want the default %s", role, got, err, want)
		}
	}
	rs, err := r.svc.Roles().Roles(ctx)
	must(t, err)
	for _, ro := range rs {
		if ro.Name == "Worker" && (ro.Model != "cli:claude:agent" || !ro.Default) {
			t.Errorf("Roles shows Worker as %+v", ro)
		}
	}
	// A pick the user made is not a default.
	_, err = r.svc.Roles().SetRoleModel(ctx, "Worker", "cli:codex:agent")
	must(t, err)
	if got, _ := r.svc.Roles().RoleModel(ctx, "Worker"); got.Model != "cli:codex:agent" || got.Default {
		t.Errorf("assigned Worker: %+v", got)
	}
	// Claude Code turned off: no default from it.
	_, err = r.svc.Roles().SetEnabled(ctx, "claude", false)
	must(t, err)
	if _, err := r.svc.Roles().RoleModel(ctx, "Researcher"); !errors.Is(err, roles.ErrNoModel) {
		t.Errorf("with Claude Code off and no Codex: %v", err)
	}
}

func TestNoCLINoDefault(t *testing.T) {
	r := newRig(t, "ok", "done")
	must(t, os.Remove(filepath.Join(r.dir, "bin", "claude")))
	_, err := r.svc.Roles().RoleModel(context.Background(), "Worker")
	if !errors.Is(err, roles.ErrNoModel) {
		t.Fatalf("no CLI installed: %v", err)
	}
	msg := err.Error()
	if msg[:1] != strings.ToUpper(msg[:1]) || strings.Count(msg, "Pipeline → Pipeline Roles") != 1 || !strings.Contains(msg, "External AI") {
		t.Errorf("the message should start with a capital and say once what to do: %q", msg)
	}
}
