package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/osfoundry/desktop/backend/appdir"
	"github.com/osfoundry/desktop/backend/notes"
)

// notesSub is one owner subcommand over the app's Notes store (Notes,
// knowledge bases, Records).
type notesSub struct {
	usage string
	flags []string // the flags usage names, described by ownerFlagUsage
	about string
	run   func(ctx context.Context, env *Env, s *notes.Store, args []string) error
}

// registerNotesCommand registers `osfoundry NAME SUB …`: it opens the app
// database and the Notes store, runs SUB and reports its error with SUB's
// usage. known lists the subcommands for the messages.
func registerNotesCommand(name, usage, help, known string, subs map[string]notesSub, page *Page) {
	for _, n := range strings.Split(known, ", ") {
		s := subs[n]
		sub := Sub{Name: n, Usage: s.usage, About: s.about}
		if len(s.flags) > 0 {
			sub.Flags = func() *flag.FlagSet { fs, _ := ownerFlagSet(s.flags...); return fs }
		}
		page.Subs = append(page.Subs, sub)
	}
	c := &Command{Name: name, Usage: usage, Help: help, Page: page}
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
	fs, vals := ownerFlagSet(names...)
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

// ownerFlagUsage says what each flag of the owner commands (notes,
// knowledge, records) does; their pages list it.
var ownerFlagUsage = map[string]string{
	"workspace": "workspace id (osfoundry notes workspaces lists them)",
	"project":   "project id (osfoundry notes projects WORKSPACE lists them)",
	"text":      "the Note's text",
	"title":     "its title",
	"file":      "a markdown file with the article's text, or - for standard input",
	"article":   "replace this article instead of adding one",
	"statuses":  "the channel's statuses, comma-separated, in board order",
	"status":    "the item's status, one of its channel's statuses",
	"body":      "the item's text",
}

// ownerFlagSet is a set of the named string flags of an owner command.
func ownerFlagSet(names ...string) (*flag.FlagSet, map[string]*string) {
	fs := flag.NewFlagSet("osfoundry", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	vals := map[string]*string{}
	for _, n := range names {
		vals[n] = fs.String(n, "", ownerFlagUsage[n])
	}
	return fs, vals
}
