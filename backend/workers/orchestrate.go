package workers

import (
	"slices"
	"strings"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/roles"
	"github.com/osfoundry/desktop/backend/runs"
	"github.com/osfoundry/desktop/backend/tools"
)

// outsideDenied are kept from runs an outside assistant started: they read
// the owner's notes, to-dos and terminal screens across every project,
// while the connection may see only the projects it was added to.
var outsideDenied = []string{"memory_search", "todo_list", "runtime_list", "runtime_read", "runtime_send", "runtime_answer"}

// projectTools are offered to a run started for a project: they reach only
// that project's discussion channel (messages.Store.RunTools).
var projectTools = []string{messages.ToolListChannelMessages, messages.ToolPostChannelMessage}

// runAccess binds a run's bridge from who started it: the starter's
// workspace and user, watched unless started unattended, the orchestration
// tools only where runs.MayOrchestrate allows them.
func runAccess(exec *tools.Executor, base []string, role roles.Role, o runs.Origin) *agentcli.ToolAccess {
	ws, user := o.Workspace, o.User
	if ws == "" {
		ws = notes.DefaultWorkspace
	}
	if user == "" {
		user = User
	}
	allow := runs.Allowlist(base, role.Name, o)
	if strings.HasPrefix(o.Source, "connect:") {
		allow = slices.DeleteFunc(allow, func(n string) bool { return slices.Contains(outsideDenied, n) })
	}
	if o.Project != "" {
		allow = append(allow, projectTools...)
	}
	return &agentcli.ToolAccess{Executor: exec, Workspace: ws, User: user, Channel: Channel, Allow: allow, Watched: !o.Unattended,
		Project: o.Project}
}

// ConnectRunner is the Connected endpoint's run tools over the pipeline
// (connect.Options.Runner).
func (w *Workers) ConnectRunner() connect.Runner { return w.Orchestrator.Connect() }
