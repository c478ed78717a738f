package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/osfoundry/desktop/backend/panestore"
	"github.com/osfoundry/desktop/backend/terminal"
)

func init() {
	c := &Command{
		Name:  "panes",
		Usage: "list | seed --count N [--dir DIR] [--command CMD] | clear",
		Help:  "Show or edit the panes the app restores at start (folder and command only).",
		Page: &Page{
			About: "The app remembers which panes are open (folder and command, never what was on their screens) and " +
				"restores them at its next start. These change that list in the app's database; a running window keeps " +
				"its panes until it restarts.",
			Subs: []Sub{
				{Name: "list", About: "Each remembered pane: id, folder and command."},
				{Name: "seed", Usage: "[--count N] [--dir DIR] [--command CMD]", About: "Add N panes to restore (for trying the app or measuring its start).",
					Flags: func() *flag.FlagSet { fs, _ := panesSeedFlags(); return fs }},
				{Name: "clear", About: "Forget every pane: the next start opens none."},
			},
			Example: "osfoundry panes seed --count 4 --dir ~/src/app --command claude",
			Docs:    "README.md",
		},
	}
	c.Run = func(env *Env, args []string) int {
		if len(args) == 0 {
			return fail(env, c, "name an action")
		}
		db, _, err := openAppDB()
		if err != nil {
			return fail(env, c, "%v", err)
		}
		defer db.Close()
		ps, err := panestore.Open(context.Background(), db)
		if err != nil {
			return fail(env, c, "%v", err)
		}
		switch args[0] {
		case "list":
			specs, err := ps.LoadPanes()
			if err != nil {
				return fail(env, c, "%v", err)
			}
			for _, sp := range specs {
				fmt.Fprintf(env.Stdout, "%s\t%s\t%q\n", sp.ID, sp.Dir, sp.Argv)
			}
		case "seed":
			fs, o := panesSeedFlags()
			n, folder, command := &o.count, &o.dir, &o.command
			if err := fs.Parse(args[1:]); err != nil {
				return fail(env, c, "%v", err)
			}
			argv, err := terminal.SplitCommand(*command)
			if err != nil {
				return fail(env, c, "%v", err)
			}
			if len(argv) == 0 {
				argv = []string{terminal.DefaultShell()}
			}
			abs, _ := filepath.Abs(*folder)
			for i := 0; i < *n; i++ {
				sp := terminal.Spec{ID: fmt.Sprintf("p-seed%02d", i), Dir: abs, Argv: argv, Cols: 120, Rows: 32}
				if err := ps.SavePane(sp); err != nil {
					return fail(env, c, "%v", err)
				}
			}
			fmt.Fprintf(env.Stdout, "%d panes will be restored at the next start\n", *n)
		case "clear":
			specs, _ := ps.LoadPanes()
			for _, sp := range specs {
				ps.DeletePane(sp.ID)
			}
		default:
			return fail(env, c, "unknown action %q", args[0])
		}
		return 0
	}
	register(c)
}

type panesSeedOpts struct {
	count        int
	dir, command string
}

func panesSeedFlags() (*flag.FlagSet, *panesSeedOpts) {
	var o panesSeedOpts
	fs := flag.NewFlagSet("panes seed", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.IntVar(&o.count, "count", 4, "number of panes")
	fs.StringVar(&o.dir, "dir", ".", "folder of each pane")
	fs.StringVar(&o.command, "command", "", "command (default: your shell)")
	return fs, &o
}
