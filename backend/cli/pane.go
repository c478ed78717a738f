package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/osfoundry/desktop/backend/panehook"
	"github.com/osfoundry/desktop/backend/worktree"
)

func init() {
	c := &Command{
		Name:  "pane",
		Usage: "report working|done | notify | session   (hook payload on stdin) | setup -- PROGRAM…",
		Help:  "Hook helper: report an agent's state into the pane it runs in (used by the hooks the app adds).",
		// Static data: the hook path (report, notify, session) does no work for it.
		Page: panePage,
	}
	c.Run = func(env *Env, args []string) int {
		var err error
		switch {
		case len(args) >= 3 && args[0] == "setup" && args[1] == "--":
			// Replaces this process with the program once the set-up ran.
			err = worktree.SetupThenExec(args[2:], env.Stdin, env.Stdout)
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

var panePage = &Page{
	About: "The app adds hooks to the Claude Code panes it starts; they call this command on every tool use. It finds the " +
		"pane from the environment the pane was started with and hands the report to the running app, which changes the " +
		"pane's state on the Sessions board. Outside an osFoundry pane it exits 1 and says so.",
	Subs: []Sub{
		{Name: "report", Usage: "working|done", About: "The agent started or finished a turn."},
		{Name: "notify", Usage: "", About: "A notification hook: its JSON payload on stdin (at most 1 MiB), e.g. a permission prompt."},
		{Name: "session", Usage: "", About: "A session-start hook: its JSON payload on stdin carries the session id, so the pane resumes it after a restart."},
		{Name: "setup", Usage: "-- PROGRAM [ARGS…]", About: "In a pane on a new branch: runs the worktree's set-up command (OSF_SETUP_COMMAND, stopped after OSF_SETUP_LIMIT seconds) with its output in the pane, then starts PROGRAM."},
	},
	Example: "osfoundry pane report working\necho '{\"session_id\":\"abc\"}' | osfoundry pane session",
	Docs:    "README.md",
}
