package workers

import (
	"regexp"
	"slices"
	"testing"

	"github.com/osfoundry/desktop/backend/roles"
	"github.com/osfoundry/desktop/backend/runs"
)

// toolName is how a prompt names one of the app's tools (memory_search,
// runtime_send): lower-case words joined by underscores.
var toolName = regexp.MustCompile(`\b[a-z]+(?:_[a-z]+)+\b`)

// A role's prompt names only tools a run of that role is really offered:
// on the bridge's allowlist and registered in this app's executor (a model
// told to use web_search, which the app does not offer, wastes its turns
// looking for it).
func TestRolePromptsNameOnlyOfferedTools(t *testing.T) {
	r := newRig(t)
	base := append(slices.Clone(roles.DefaultTools), liveScreen...)
	for _, name := range roles.RoleNames() {
		role, err := roles.LookupRole(name)
		if err != nil {
			t.Fatal(err)
		}
		var offered []string
		for _, tool := range runAccess(r.w.Executor, base, role, runs.Origin{}).Allow {
			if _, ok := r.w.Executor.Lookup(tool); ok {
				offered = append(offered, tool)
			}
		}
		for _, named := range toolName.FindAllString(role.Prompt, -1) {
			if !slices.Contains(offered, named) {
				t.Errorf("the %s prompt names %s, which its runs are not offered (offered: %v)", name, named, offered)
			}
		}
	}
}
