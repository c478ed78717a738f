package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/osfoundry/desktop/backend/panehook"
)

func init() {
	c := &Command{
		Name:  "pane",
		Usage: "report working|done | notify | session   (hook payload on stdin)",
		Help:  "Hook helper: report an agent's state into the pane it runs in (used by the hooks the app adds).",
	}
	c.Run = func(env *Env, args []string) int {
		var err error
		switch {
		case len(args) == 2 && args[0] == "report" && (args[1] == "working" || args[1] == "done"):
			err = panehook.Send(os.Getenv, "report", args[1], nil)
		case len(args) == 1 && (args[0] == "notify" || args[0] == "session"):
			payload, rerr := io.ReadAll(io.LimitReader(env.Stdin, 1<<20))
			if rerr != nil {
				return fail(env, c, "reading the hook payload: %v", rerr)
			}
			err = panehook.Send(os.Getenv, args[0], "", payload)
		default:
			return fail(env, c, "expected `report working`, `report done`, `notify` or `session`")
		}
		if err != nil {
			fmt.Fprintln(env.Stderr, "osfoundry pane:", err)
			return 1
		}
		return 0
	}
	register(c)
}
