package cli

import (
	"os"

	"github.com/osfoundry/desktop/backend/acp"
)

func init() {
	register(&Command{
		Name:  "acp",
		Usage: acp.Usage,
		Help:  "Run Claude Code (or another ACP agent) through the Agent Client Protocol in this terminal; in a pane, its permission requests put the pane in Needs you.",
		Page: &Page{
			About: "It starts the ACP adapter (" + acp.DefaultAdapter + " unless one follows --, with its arguments) and talks " +
				"to it over the Agent Client Protocol: your prompts go in, the agent's answers and tool calls come out in this " +
				"terminal, and each session/request_permission asks you here. Started in an osFoundry pane, every permission " +
				"request is reported to the app as a fact, so the pane moves to Needs you at once.",
			Example: "osfoundry acp\nosfoundry acp -- " + acp.DefaultAdapter,
			Docs:    "README.md",
		},
		Run: func(env *Env, args []string) int {
			return acp.Main(args, env.Stdin, env.Stdout, env.Stderr, os.Getenv)
		},
	})
}
