package runs

import "slices"

// Origin says who started a run. It decides how the run's bridge is bound
// (workspace, user), whether a person watches it, and whether it may start
// runs of its own.
type Origin struct {
	// Source names the starter: "connect:<connection>" for an outside
	// assistant, "bridge:<run>" for an orchestration tool of that run, ""
	// for a person in the window.
	Source string `json:"source,omitempty"`
	// Workspace and User bind the run's bridge ("" = the app's own).
	Workspace string `json:"workspace,omitempty"`
	User      string `json:"user,omitempty"`
	// Unattended runs have nobody watching: a tool that needs approval is
	// refused at once instead of waiting.
	Unattended bool `json:"unattended,omitempty"`
	// Depth is 0 for a run a person started; a run started by a tool is one
	// deeper than its starter.
	Depth int `json:"depth,omitempty"`
	// Folder is where the run works ("" = the current Local Folder): runs
	// an orchestration tool starts work where their starter works.
	Folder string `json:"folder,omitempty"`
	// Project is the project the run is for ("" = none): its bridge reads
	// and posts in that project's discussion channel.
	Project string `json:"project,omitempty"`
}

// MaxDepth bounds orchestration: a run of this depth or deeper was started
// by a tool and cannot start more (a fleet of fleets would fork without end).
const MaxDepth = 1

// OrchestrationTools start runs of their own.
var OrchestrationTools = []string{"spawn_fleet", "loop_run", "graph_run"}

// orchestratorRoles may be offered the orchestration tools.
var orchestratorRoles = []string{"Worker"}

// MayOrchestrate reports whether a run of the named role started from o
// may call the orchestration tools: only an orchestrating role, only in a
// run a person started and watches.
func MayOrchestrate(role string, o Origin) bool {
	return slices.Contains(orchestratorRoles, role) && o.Depth < MaxDepth && !o.Unattended
}

// Allowlist is a run's bridge allowlist: base, plus the orchestration
// tools when the run may orchestrate, minus them otherwise (whatever base
// holds).
func Allowlist(base []string, role string, o Origin) []string {
	out := make([]string, 0, len(base)+len(OrchestrationTools))
	for _, n := range base {
		if !slices.Contains(OrchestrationTools, n) && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	if MayOrchestrate(role, o) {
		out = append(out, OrchestrationTools...)
	}
	return out
}
