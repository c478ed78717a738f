package acp

import (
	"fmt"
	"strings"
)

// Agent is an ACP agent the New pane form offers: the adapter program
// `osfoundry acp -- ARGV…` starts for it.
type Agent struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	Argv    []string `json:"argv"`    // the adapter command, run without a shell
	Install string   `json:"install"` // how to get the adapter when it is missing
}

// Agents are the ACP agents whose adapters the bundled rules files name
// (rules/*.toml [acp]): the first is the default of `osfoundry acp`.
var Agents = []Agent{
	{ID: "claude", Name: "Claude Code", Argv: []string{DefaultAdapter}, Install: "npm install -g @zed-industries/claude-agent-acp"},
	{ID: "gemini", Name: "Gemini CLI", Argv: []string{"gemini", "--acp"}, Install: "npm install -g @google/gemini-cli"},
}

// FindAgent returns the agent with id.
func FindAgent(id string) (Agent, bool) {
	for _, a := range Agents {
		if a.ID == id {
			return a, true
		}
	}
	return Agent{}, false
}

// PaneArgv is the command line of a pane running the app's own ACP client
// with adapter, asking it for model ("": the agent's own): exe is this
// program (os.Executable), so the pane needs no `osfoundry` command on
// PATH. The model is one argument after --model, never a shell word.
func PaneArgv(exe, model string, adapter []string) ([]string, error) {
	argv := []string{exe, "acp"}
	if m := strings.TrimSpace(model); m != "" {
		if strings.HasPrefix(m, "-") || strings.ContainsAny(m, "\x00\r\n") {
			return nil, fmt.Errorf("%q is not a model name: name one the agent offers (its pane lists them with /model)", model)
		}
		argv = append(argv, "--model", m)
	}
	return append(append(argv, "--"), adapter...), nil
}
