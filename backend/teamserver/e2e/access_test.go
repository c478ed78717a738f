package e2e_test

import (
	"net/http"
	"testing"

	"github.com/osfoundry/desktop/backend/teamauth"
)

// Carol's assistant follows Carol's standing in the workspace, on the
// very next call: made a viewer it reads but cannot write; removed, it
// can do nothing, not even list. Ids of another workspace, guessed, read
// as not found.
func membership(t *testing.T, c *cluster) {
	carol, member := c.member("carol", teamauth.Editor)
	a := c.connectAs(t, carol, "carol", "Carol's assistant", "osfoundry:read osfoundry:write")
	edit := func() map[string]any { return noteEdit(t, c, "- ship\n- carol") }
	read := map[string]any{"note_id": "note-a1"}
	steps := []struct {
		name   string
		before func()
		tool   string
		args   func() map[string]any
		want   string
	}{
		{"an editor writes", nil, "edit_note_tab", edit, "OK saved"},
		{"a note of another workspace, guessed", nil, "list_note_tabs", fixed(map[string]any{"note_id": "note-x1"}), "DENY not_found"},
		{"a note that does not exist", nil, "list_note_tabs", fixed(map[string]any{"note_id": "note-zz"}), "DENY not_found"},
		// A project id reads the same whether it exists elsewhere or nowhere.
		{"a project of another workspace, guessed", nil, "list_project_resources", fixed(map[string]any{"project_id": "proj-x"}), "DENY not_in_project"},
		{"a project that does not exist", nil, "list_project_resources", fixed(map[string]any{"project_id": "proj-zz"}), "DENY not_in_project"},
		{"made a viewer: reads", func() { c.setRole(member, teamauth.Viewer) }, "list_note_tabs", fixed(read), "OK Q3 launch checklist"},
		{"made a viewer: cannot write", nil, "edit_note_tab", edit, "DENY approver_cannot_edit"},
		{"an editor again: writes", func() { c.setRole(member, teamauth.Editor) }, "edit_note_tab", edit, "OK saved"},
		{"removed: cannot read", func() { c.remove(member) }, "list_note_tabs", fixed(read), "DENY approver_cannot_view"},
		{"removed: cannot list", nil, "list_project_resources", fixed(map[string]any{}), "DENY approver_cannot_view"},
		{"removed: cannot list grants", nil, "list_granted_resources", fixed(map[string]any{}), "DENY approver_cannot_view"},
	}
	for _, s := range steps {
		if s.before != nil {
			s.before()
		}
		if got := a.call(s.tool, s.args()); got != s.want {
			t.Fatalf("%s: got %s, want %s", s.name, got, s.want)
		}
		t.Logf("%-45s %s", s.name, s.want)
	}
	// Her browser no longer sees the workspace either.
	var ws []teamauth.Workspace
	if code := carol.api("GET", "/api/workspaces", nil, &ws); code != http.StatusOK || len(ws) != 0 {
		t.Fatalf("carol's workspaces after removal: %d %+v", code, ws)
	}
}

func (c *cluster) setRole(member string, role teamauth.Role) {
	c.t.Helper()
	if code := c.alice.api("PATCH", "/api/workspaces/"+c.ws+"/members/"+member, map[string]any{"role": role}, nil); code != http.StatusOK {
		c.t.Fatalf("making %s %s: %d", member, role, code)
	}
}

func (c *cluster) remove(member string) {
	c.t.Helper()
	if code := c.alice.api("DELETE", "/api/workspaces/"+c.ws+"/members/"+member, nil, nil); code/100 != 2 {
		c.t.Fatalf("removing %s: %d", member, code)
	}
}
