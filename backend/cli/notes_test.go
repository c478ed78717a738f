package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/appdir"
)

// `osfoundry notes tool` runs one Notes tool exactly as an agent's call
// would: same schema checks, version rule and idempotency.
func TestNotesToolCommand(t *testing.T) {
	t.Setenv(appdir.EnvHome, t.TempDir())
	_, ws, _ := runCLI(t, "notes", "workspace-create", "Team")
	ws = strings.TrimSpace(ws)
	code, note, errs := runCLI(t, "notes", "create", "-workspace", ws, "-text", "first", "Plan")
	if code != 0 {
		t.Fatalf("create: %d %s", code, errs)
	}
	note = strings.TrimSpace(note)
	_, out, _ := runCLI(t, "notes", "tool", "-workspace", ws, "read_note_tab", `{"note_id":"`+note+`","tab_id":"x"}`)
	if !strings.Contains(out, "not a tab of note") {
		t.Fatalf("read of a wrong tab: %s", out)
	}
	_, out, _ = runCLI(t, "notes", "tool", "-workspace", ws, "list_note_tabs", `{"note_id":"`+note+`"}`)
	var tabs struct {
		Version int64 `json:"version"`
		Tabs    []struct {
			ID string `json:"tab_id"`
		} `json:"tabs"`
	}
	if err := json.Unmarshal([]byte(out), &tabs); err != nil || len(tabs.Tabs) != 1 {
		t.Fatalf("list_note_tabs: %v %s", err, out)
	}
	edit := func(v int64, key string) string {
		b, _ := json.Marshal(map[string]any{"note_id": note, "tab_id": tabs.Tabs[0].ID, "expected_version": v,
			"idempotency_key": key, "operation": "replace_text", "text": "first\nagent"})
		return string(b)
	}
	cases := []struct {
		name     string
		args     []string
		code     int
		contains string
	}{
		{"write", []string{"-workspace", ws, "edit_note_tab", edit(tabs.Version, "cli-key-0001")}, 0, `"status": "saved"`},
		{"retry replays", []string{"-workspace", ws, "edit_note_tab", edit(tabs.Version, "cli-key-0001")}, 0, `"replayed": true`},
		{"stale version", []string{"-workspace", ws, "edit_note_tab", edit(tabs.Version, "cli-key-0002")}, 1, "version_conflict"},
		{"missing key", []string{"-workspace", ws, "edit_note_tab", `{"note_id":"` + note + `"}`}, 1, "missing required argument"},
		{"unknown tool", []string{"-workspace", ws, "drop_everything", `{}`}, 1, "known: list_note_tabs"},
		{"not JSON", []string{"-workspace", ws, "list_note_tabs", `note`}, 1, "one JSON object"},
		{"no workspace", []string{"list_note_tabs", `{}`}, 1, "want -workspace"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := runCLI(t, append([]string{"notes", "tool"}, c.args...)...)
			if code != c.code || !strings.Contains(out+errs, c.contains) {
				t.Fatalf("code %d (want %d), output %s %s; want it to contain %q", code, c.code, out, errs, c.contains)
			}
		})
	}
}
