package connect

import (
	"strings"
	"testing"
)

// Tool arguments of the wrong type are refused in the caller's terms
// (argument names and JSON types), never in Go's.
func TestWrongArgumentTypesNameNoGoTypes(t *testing.T) {
	e := newEnv(t)
	g := e.login(e.browser(true), "", false)
	must(t, e.svc.AddProject(bg, e.onlyConnection().ID, "proj-a"))
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"list_project_resources", map[string]any{"project_id": 5}, "project_id must be a string"},
		{"link_current_chat", map[string]any{"project_id": "proj-a", "label": []int{1}}, "label must be a string"},
		{"read_note", map[string]any{"note_id": true}, "note_id must be a string"},
	} {
		_, out := e.rpc(e.srv.BaseURL(), g.access, "", "tools/call", map[string]any{"name": c.tool, "arguments": c.args})
		text := ""
		if res, ok := out["result"].(map[string]any); ok {
			if content, ok := res["content"].([]any); ok && len(content) > 0 {
				text, _ = content[0].(map[string]any)["text"].(string)
			}
		} else if er, ok := out["error"].(map[string]any); ok {
			text, _ = er["message"].(string)
		}
		for _, leak := range []string{"Go value", "Go struct", "json: ", "unmarshal"} {
			if strings.Contains(text, leak) {
				t.Errorf("%s %v: %q names %q", c.tool, c.args, text, leak)
			}
		}
		if !strings.Contains(text, c.want) {
			t.Errorf("%s %v: %q, want it to say %q", c.tool, c.args, text, c.want)
		}
	}
}
