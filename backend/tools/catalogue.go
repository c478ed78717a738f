package tools

import "slices"

// CatalogueTool is one tool of the articles' bridge catalogue and whether
// this app offers it. The Pipeline screen and docs/tools.md show the same
// rows, so neither promises a tool a run can never call.
type CatalogueTool struct {
	// Name is the tool as the articles name it.
	Name string `json:"name"`
	// Tools are this app's tool names that provide it (none when it is
	// not offered).
	Tools []string `json:"tools"`
	// Offered: a run can call it today. Default: it is on every tool
	// role's bridge allowlist.
	Offered bool `json:"offered"`
	Default bool `json:"default"`
	// Note says what it does, or why it is not offered and what to use.
	Note string `json:"note"`
}

// catalogue follows the articles' list: read-only tools, orchestration,
// the live screen and Canvas; then the three tools the bridge leaves out
// on purpose.
var catalogue = []CatalogueTool{
	{Name: "memory_search", Tools: []string{"memory_search"}, Offered: true, Default: true,
		Note: "Full-text search over your Notes and knowledge files."},
	{Name: "web_search", Note: "Not offered: osFoundry has no web search service to call. A Claude Code or Codex " +
		"worker can still use its own web search, under that CLI's own settings."},
	{Name: "extract_content", Tools: []string{"extract_content"}, Offered: true, Default: true,
		Note: "Reads a file in the run's folder or a web page as text."},
	{Name: "code_search", Tools: []string{"code_search"}, Offered: true, Default: true,
		Note: "Searches the code in the run's folder."},
	{Name: "todo_list", Tools: []string{"todo_list"}, Offered: true, Default: true,
		Note: "The workspace's to-do items."},
	{Name: "transcribe", Note: "Not offered: osFoundry has no speech-to-text service to call, so the tool could " +
		"only fail."},
	{Name: "cloud_* read tools", Note: "Not offered: the desktop app does not sign in to an osFoundry cloud. " +
		"Outside assistants read shared Notes through Connected agents."},
	{Name: "spawn_fleet, graph_run, loop_run", Tools: []string{"spawn_fleet", "graph_run", "loop_run"}, Offered: true,
		Note: "Orchestration: a Worker run you started and watch can start fleets, graphs and loops of runs."},
	{Name: "live screen (ui_agent_act)", Tools: []string{"runtime_list", "runtime_read", "runtime_send", "runtime_answer"},
		Offered: true, Note: "Reads the terminal panes and types into them; typing always asks you first."},
	{Name: "Canvas tools", Note: "Not offered: the app has no Canvas editor."},
	{Name: "read_file, write_file, execute_command", Note: "Never on the bridge, by design: Claude Code and Codex " +
		"have their own versions limited to the run's folder."},
}

// Catalogue lists the articles' bridge tools with what this app offers.
func Catalogue() []CatalogueTool {
	out := slices.Clone(catalogue)
	for i := range out {
		out[i].Tools = slices.Clone(out[i].Tools)
		if out[i].Tools == nil {
			out[i].Tools = []string{}
		}
	}
	return out
}

// DefaultBridge is a tool role's default allowlist: the offered read-only
// tools every run can call. A name here that nothing registers would be
// dropped without a word, so the catalogue is where a tool is promised.
func DefaultBridge() []string {
	var out []string
	for _, c := range catalogue {
		if c.Default {
			out = append(out, c.Tools...)
		}
	}
	return out
}
