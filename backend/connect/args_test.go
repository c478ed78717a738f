package connect

import (
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/forge"
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

// Every built-in tool refuses an argument it does not take, naming the
// ones it does, instead of silently ignoring it (a misspelt filter would
// otherwise return everything).
func TestBuiltinsRefuseUnknownArguments(t *testing.T) {
	e := newEnvOpts(t, ServerConfig{}, func(o *Options) { o.PullRequests = &forge.Opener{} })
	g := e.login(e.browser(true), "osfoundry:read osfoundry:write", false)
	must(t, e.svc.AddProject(bg, e.onlyConnection().ID, "proj-a"))
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"list_granted_resources", map[string]any{"workspace": "ws-b"}, `unknown argument "workspace"; list_granted_resources accepts no arguments`},
		{"list_project_resources", map[string]any{"project": "proj-a"}, `unknown argument "project"; list_project_resources accepts: project_id, resource_type, search`},
		{"link_current_chat", map[string]any{"project_id": "proj-a", "label": "x", "lable": "y"}, `unknown argument "lable"`},
		{"get_proposal_status", map[string]any{"proposal_id": "p", "verbose": true}, `unknown argument "verbose"`},
		{"propose_pull_request", map[string]any{"project_id": "proj-a", "target": "t", "title": "x", "branch": "b"}, `unknown argument "target"`},
		{"propose_change_set", map[string]any{"project_id": "proj-a", "title": "x", "files": []any{}, "message": "m"}, `unknown argument "message"`},
	} {
		_, out := e.rpc(e.srv.BaseURL(), g.access, "", "tools/call", map[string]any{"name": c.tool, "arguments": c.args})
		res, _ := out["result"].(map[string]any)
		text := ""
		if content, ok := res["content"].([]any); ok && len(content) > 0 {
			text, _ = content[0].(map[string]any)["text"].(string)
		}
		if res["isError"] != true || !strings.Contains(text, c.want) {
			t.Errorf("%s %v: error=%v %q; want a tool error saying %q", c.tool, c.args, res["isError"], text, c.want)
		}
	}
}
