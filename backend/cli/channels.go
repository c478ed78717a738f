package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/osfoundry/desktop/backend/appdir"
	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/notes"
)

func init() {
	c := &Command{Name: "channels",
		Usage: "create WORKSPACE NAME [--project P] [--private] | post CHANNEL TEXT | read CHANNEL [--json] | list PROJECT",
		Help:  "Create, read and post to Message channels as their owner; list shows a project's discussion channel id.",
		Page: &Page{
			About: "Every project has a discussion channel; other channels are public or private. Connected agents read " +
				"and post in them with list_channel_messages and post_channel_message: a project's connection opens only its " +
				"discussion channel, others need `osfoundry connections invite`. Posts made here are signed as you, the owner.",
			Subs: []Sub{
				{Name: "create", Usage: "WORKSPACE NAME [--project P] [--private]", About: "Create a channel; prints its id, name and kind.",
					Flags: func() *flag.FlagSet { return channelsFlagSet("project", "private") }},
				{Name: "post", Usage: "CHANNEL TEXT", About: "Post TEXT to a channel."},
				{Name: "read", Usage: "CHANNEL [--json]", About: "A channel's messages, oldest first.",
					Flags: func() *flag.FlagSet { return channelsFlagSet("json") }},
				{Name: "list", Usage: "PROJECT", About: "The channels of a project's workspace, its discussion channel among them."},
			},
			Example: "osfoundry channels post CHANNEL \"build is green again\"",
			Docs:    "README.md",
		}}
	c.Run = func(env *Env, args []string) int { return runChannels(env, c, args) }
	register(c)
}

// channelsValued are the channels flags: true for those that take a value.
var channelsValued = map[string]bool{"project": true, "private": false, "json": false}

var channelsFlagUsage = map[string]string{
	"project": "create the channel in this project (osfoundry notes projects WORKSPACE lists them)",
	"private": "only you, and connections you invite, see the channel",
	"json":    "print JSON",
}

// channelsFlagSet describes the named channels flags for a help page.
func channelsFlagSet(names ...string) *flag.FlagSet {
	fs := flag.NewFlagSet("channels", flag.ContinueOnError)
	for _, n := range names {
		if channelsValued[n] {
			fs.String(n, "", channelsFlagUsage[n])
		} else {
			fs.Bool(n, false, channelsFlagUsage[n])
		}
	}
	return fs
}

// splitFlags separates --name[=value] flags (valued ones take the next
// argument) from positional arguments, so flags may come after them.
func splitFlags(args []string, valued map[string]bool) (map[string]string, []string, error) {
	flags, pos := map[string]string{}, []string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "--") {
			pos = append(pos, a)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		want, known := valued[name]
		switch {
		case !known:
			return nil, nil, fmt.Errorf("unknown flag --%s", name)
		case want && !hasVal:
			if i+1 >= len(args) {
				return nil, nil, fmt.Errorf("--%s needs a value", name)
			}
			i++
			val = args[i]
		case !want && hasVal:
			return nil, nil, fmt.Errorf("--%s takes no value", name)
		}
		flags[name] = val
	}
	return flags, pos, nil
}

func runChannels(env *Env, c *Command, args []string) int {
	if len(args) == 0 {
		return fail(env, c, "name a subcommand")
	}
	sub := args[0]
	flags, pos, err := splitFlags(args[1:], channelsValued)
	if err != nil {
		return fail(env, c, "%v", err)
	}
	need := map[string]int{"create": 2, "post": 2, "read": 1, "list": 1}
	n, ok := need[sub]
	if !ok {
		return fail(env, c, "unknown subcommand %q", sub)
	}
	if len(pos) != n {
		return fail(env, c, "%s takes %d argument(s), got %d", sub, n, len(pos))
	}
	db, dir, err := openAppDB()
	if err != nil {
		fmt.Fprintf(env.Stderr, "osfoundry channels: %v\n", err)
		return 1
	}
	defer db.Close()
	ctx := context.Background()
	st, err := notes.Open(db, appdir.Knowledge(dir))
	if err != nil {
		fmt.Fprintf(env.Stderr, "osfoundry channels: %v\n", err)
		return 1
	}
	ms, err := messages.Open(db, messages.Options{})
	if err != nil {
		fmt.Fprintf(env.Stderr, "osfoundry channels: %v\n", err)
		return 1
	}
	out := env.Stdout
	switch sub {
	case "create":
		if err := checkPlace(ctx, st, pos[0], flags["project"]); err != nil {
			return channelsErr(env, err)
		}
		_, private := flags["private"]
		n := messages.NewChannel{Workspace: pos[0], Project: flags["project"], Name: pos[1], Private: private}
		if private {
			n.Owner = messages.OwnerID
		}
		ch, err := ms.CreateChannel(ctx, n)
		if err != nil {
			return channelsErr(env, err)
		}
		fmt.Fprintf(out, "%s %s (%s)\n", ch.ID, ch.Name, channelKind(ch))
	case "post":
		m, _, err := ms.PostMessage(ctx, messages.Post{Channel: pos[0], AuthorKind: messages.AuthorPerson,
			Author: messages.OwnerID, AuthorName: messages.OwnerName, Text: pos[1]})
		if err != nil {
			return channelsErr(env, err)
		}
		fmt.Fprintf(out, "posted %s\n", m.ID)
	case "read":
		if _, err := ms.Channel(ctx, pos[0]); err != nil {
			return channelsErr(env, err)
		}
		list, err := ms.ListMessages(ctx, pos[0], 0, messages.MaxListLimit)
		if err != nil {
			return channelsErr(env, err)
		}
		if _, ok := flags["json"]; ok {
			if err := writeJSON(out, list); err != nil {
				return channelsErr(env, err)
			}
			return 0
		}
		for _, m := range list {
			fmt.Fprintf(out, "%s  %s: %s\n", m.CreatedAt, safe(m.AuthorName), safe(m.Text))
		}
	case "list":
		disc, err := ms.ProjectDiscussion(ctx, pos[0])
		if err != nil {
			return channelsErr(env, err)
		}
		cs, err := ms.ListChannels(ctx, disc.Workspace, pos[0])
		if err != nil {
			return channelsErr(env, err)
		}
		rows := [][]string{}
		for _, ch := range cs {
			rows = append(rows, []string{ch.ID, ch.Name, channelKind(ch)})
		}
		printTable(env, []string{"ID", "NAME", "KIND"}, rows)
	}
	return 0
}

func channelKind(c messages.Channel) string {
	switch {
	case c.Discussion:
		return "discussion"
	case c.Private:
		return "private"
	}
	return "public"
}

// checkPlace refuses a workspace or project that does not exist, naming
// the command that lists them.
func checkPlace(ctx context.Context, st *notes.Store, ws, project string) error {
	wss, err := st.ListWorkspaces(ctx)
	if err != nil {
		return err
	}
	found := false
	for _, w := range wss {
		found = found || w.ID == ws
	}
	if !found {
		return fmt.Errorf("%w: workspace %s does not exist; see osfoundry notes workspaces", messages.ErrNotFound, ws)
	}
	if project == "" {
		return nil
	}
	ps, err := st.ListProjects(ctx, ws)
	if err != nil {
		return err
	}
	for _, p := range ps {
		if p.ID == project {
			return nil
		}
	}
	return fmt.Errorf("%w: project %s is not in workspace %s; see osfoundry notes projects %s", messages.ErrNotFound, project, ws, ws)
}

func channelsErr(env *Env, err error) int {
	fmt.Fprintf(env.Stderr, "osfoundry channels: %v\n", err)
	if errors.Is(err, messages.ErrNotFound) || errors.Is(err, messages.ErrInvalid) {
		return 2
	}
	return 1
}
