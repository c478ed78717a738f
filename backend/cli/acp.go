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
		Run: func(env *Env, args []string) int {
			return acp.Main(args, env.Stdin, env.Stdout, env.Stderr, os.Getenv)
		},
	})
}
