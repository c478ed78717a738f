package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/osfoundry/desktop/backend/appdir"
	"github.com/osfoundry/desktop/backend/notes"
)

// notesSub is one owner subcommand over the app's Notes store (Notes,
// knowledge bases, Records).
type notesSub struct {
	usage string
	run   func(ctx context.Context, env *Env, s *notes.Store, args []string) error
}

// registerNotesCommand registers `osfoundry NAME SUB …`: it opens the app
// database and the Notes store, runs SUB and reports its error with SUB's
// usage. known lists the subcommands for the messages.
func registerNotesCommand(name, usage, help, known string, subs map[string]notesSub) {
	c := &Command{Name: name, Usage: usage, Help: help}
	c.Run = func(env *Env, args []string) int {
		if len(args) == 0 {
			return fail(env, c, "name a subcommand: %s", known)
		}
		sub, ok := subs[args[0]]
		if !ok {
			return fail(env, c, "unknown subcommand %q; known: %s", args[0], known)
		}
		db, dir, err := openAppDB()
		if err != nil {
			fmt.Fprintf(env.Stderr, "osfoundry %s: %v\n", name, err)
			return 1
		}
		defer db.Close()
		s, err := notes.Open(db, appdir.Knowledge(dir))
		if err != nil {
			fmt.Fprintf(env.Stderr, "osfoundry %s: %v\n", name, err)
			return 1
		}
		if err := sub.run(context.Background(), env, s, args[1:]); err != nil {
			fmt.Fprintf(env.Stderr, "osfoundry %s %s: %v\nusage: osfoundry %s %s %s\n", name, args[0], err, name, args[0], sub.usage)
			return 1
		}
		return 0
	}
	register(c)
}

// interspersedFlags parses --name VALUE flags placed before, between or
// after the positional arguments.
func interspersedFlags(args []string, names ...string) (map[string]*string, []string, error) {
	fs := flag.NewFlagSet("osfoundry", flag.ContinueOnError)
	fs.SetOutput(new(strings.Builder))
	vals := map[string]*string{}
	for _, n := range names {
		vals[n] = fs.String(n, "", "")
	}
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, nil, err
		}
		if fs.NArg() == 0 {
			return vals, rest, nil
		}
		rest = append(rest, fs.Arg(0))
		args = fs.Args()[1:]
	}
}
