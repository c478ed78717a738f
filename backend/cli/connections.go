package cli

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/appdir"
	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/connect/msgres"
	"github.com/osfoundry/desktop/backend/connect/notesres"
	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/notes"
)

// serverURLFile is where `osfoundry serve` writes its address, so owner
// commands on the same machine can build sign-in links for it.
const serverURLFile = "connect-server.url"

func init() {
	c := &Command{Name: "connections",
		Usage: "list | add ASSISTANT NAME | add-project CONN PROJECT | remove-project CONN PROJECT | invite CONN CHANNEL | uninvite CONN CHANNEL | " +
			"revoke CONN | tools CONN [--only a,b | --off a,b] | activity [CONN] | proposals | approve ID | decline ID | " +
			"users | add-user NAME | role USER WORKSPACE [PROJECT] viewer|editor|owner|none | signin-link [--user ID] [--url URL]",
		Help: "Manage Connected agents without a window: connections, their projects, tools, proposals, people's roles.",
		Page: connectionsPage}
	c.Run = func(env *Env, args []string) int { return runConnections(env, c, args) }
	register(c)
}

var connectionsPage = &Page{
	About: "Connected agents are outside assistants (Claude, ChatGPT, Codex CLI, any MCP client) that signed in to the " +
		"app's MCP endpoint (the window's, or `osfoundry serve`). Each connection reaches only the projects and channels " +
		"added to it and only the tools left on; access is checked again on every call, so a change here applies to its " +
		"next call. CONN is a connection id from list.",
	Subs: []Sub{
		{Name: "list", About: "Every connection: id, name, assistant, status, workspace, projects and scopes; below them, " +
			"the chats linked to each connection's projects (link_current_chat), under their connection and project. " +
			"Work assigned to a linked chat waits until you open that chat and ask it to review the work: osFoundry " +
			"cannot open a chat or notify it."},
		{Name: "add", Usage: "ASSISTANT NAME", About: "Add a connection by hand; prints its id."},
		{Name: "add-project", Usage: "CONN PROJECT", About: "Let the connection reach a project (its Notes, knowledge bases, Records and discussion channel)."},
		{Name: "remove-project", Usage: "CONN PROJECT", About: "Take a project away from the connection."},
		{Name: "invite", Usage: "CONN CHANNEL", About: "Let the connection read and post in a Message channel other than its projects' discussions."},
		{Name: "uninvite", Usage: "CONN CHANNEL", About: "Take the invitation back."},
		{Name: "revoke", Usage: "CONN", About: "End the connection: its tokens stop working at once."},
		{Name: "tools", Usage: "CONN [--only a,b | --off a,b]", About: "Show the connection's tools, or turn some off.",
			Flags: func() *flag.FlagSet { fs, _, _ := connToolsFlags(); return fs }},
		{Name: "activity", Usage: "[CONN]", About: "The latest calls, of every connection or one."},
		{Name: "proposals", About: "Change sets waiting for your approval."},
		{Name: "approve", Usage: "ID", About: "Approve a proposal: it is committed on a new branch osfoundry/proposal-ID."},
		{Name: "decline", Usage: "ID", About: "Decline a proposal; nothing is written."},
		{Name: "users", About: "The people who may sign in, with their roles."},
		{Name: "add-user", Usage: "NAME", About: "Add a person; prints their id."},
		{Name: "role", Usage: "USER WORKSPACE [PROJECT] viewer|editor|owner|none", About: "Give a person a role in a workspace or one of its projects."},
		{Name: "signin-link", Usage: "[--user ID] [--url URL]", About: "A single-use sign-in link for a person, on the server `osfoundry serve` recorded or --url.",
			Flags: func() *flag.FlagSet { fs, _, _ := signInLinkFlags(); return fs }},
	},
	Example: "osfoundry connections tools CONN --off post_channel_message",
	Docs:    "README.md",
}

// openConnect opens the app database and the connect Service over the notes
// and message stores.
func openConnect(ctx context.Context) (*connect.Service, *sql.DB, string, error) {
	db, dir, err := openAppDB()
	if err != nil {
		return nil, nil, "", err
	}
	st, err := notes.Open(db, appdir.Knowledge(dir))
	if err != nil {
		db.Close()
		return nil, nil, "", err
	}
	ms, err := messages.Open(db, messages.Options{})
	if err != nil {
		db.Close()
		return nil, nil, "", err
	}
	svc, err := connect.Open(ctx, db, connect.Options{Resources: msgres.Resources{Resources: notesres.New(st), S: ms},
		Extra: []connect.ToolSource{msgres.Source{S: ms}}, Imports: notesres.Imports(st)})
	if err != nil {
		db.Close()
		return nil, nil, "", err
	}
	ms.SetNameOf(msgres.NameOf(svc))
	return svc, db, dir, nil
}

func runConnections(env *Env, c *Command, args []string) int {
	if len(args) == 0 {
		return fail(env, c, "name a subcommand")
	}
	ctx := context.Background()
	svc, db, dir, err := openConnect(ctx)
	if err != nil {
		fmt.Fprintf(env.Stderr, "osfoundry connections: %v\n", err)
		return 1
	}
	defer db.Close()
	sub, rest := args[0], args[1:]
	need := func(n int) bool { return len(rest) == n }
	out := env.Stdout
	switch {
	case sub == "list" && need(0):
		cs, err := svc.Connections(ctx)
		if err != nil {
			return report(env, err)
		}
		listConnections(env, cs)
	case sub == "add" && need(2):
		x, err := svc.CreateConnection(ctx, rest[0], rest[1])
		if err != nil {
			return report(env, err)
		}
		fmt.Fprintf(out, "%s %s\n%s\n", x.ID, x.DisplayName, x.StatusText)
		if u, err := os.ReadFile(filepath.Join(dir, serverURLFile)); err == nil {
			fmt.Fprintf(out, "Server address: %s%s\n", strings.TrimSpace(string(u)), connect.ResourcePath)
		}
	case sub == "add-project" && need(2):
		return done(env, svc.AddProject(ctx, rest[0], rest[1]), "added")
	case sub == "remove-project" && need(2):
		return done(env, svc.RemoveProject(ctx, rest[0], rest[1]), "removed")
	case sub == "invite" && need(2):
		return done(env, svc.InviteChannel(ctx, rest[0], rest[1], connect.OwnerID), "invited")
	case sub == "uninvite" && need(2):
		return done(env, svc.RemoveChannel(ctx, rest[0], rest[1]), "invite withdrawn")
	case sub == "revoke" && need(1):
		return done(env, svc.Revoke(ctx, rest[0]), "revoked")
	case sub == "tools" && len(rest) >= 1:
		return connTools(env, c, svc, rest)
	case sub == "activity" && len(rest) <= 1:
		id := ""
		if len(rest) == 1 {
			id = rest[0]
		}
		as, err := svc.RecentActivity(ctx, id, 50)
		if err != nil {
			return report(env, err)
		}
		rows := [][]string{}
		for _, a := range as {
			rows = append(rows, []string{a.At.Local().Format(time.DateTime), a.ConnectionID, a.Tool, a.Decision, a.Detail})
		}
		printTable(env, []string{"TIME", "CONNECTION", "TOOL", "DECISION", "ITEM"}, rows)
	case sub == "proposals" && need(0):
		ps, err := svc.Proposals(ctx, "pending")
		if err != nil {
			return report(env, err)
		}
		rows := [][]string{}
		for _, p := range ps {
			rows = append(rows, []string{p.ID, p.Connection, p.Kind, p.Project, p.Target, p.Title, strings.Join(p.Files, ",")})
		}
		printTable(env, []string{"ID", "CONNECTION", "KIND", "PROJECT", "TARGET", "TITLE", "FILES"}, rows)
	case (sub == "approve" || sub == "decline") && need(1):
		p, err := svc.Decide(ctx, rest[0], connect.OwnerID, sub == "approve")
		if err != nil {
			return report(env, err)
		}
		if p.Problem != "" { // a change set that could not apply: still pending, nothing changed
			return report(env, fmt.Errorf("%s not applied (still waiting; decline it or ask for a new one): %s", p.ID, p.Problem))
		}
		if p.Branch != "" {
			fmt.Fprintf(out, "%s %s: committed on branch %s (%s)\n", p.ID, p.Status, p.Branch, p.Commit)
			break
		}
		fmt.Fprintf(out, "%s %s\n", p.ID, p.Status)
	case sub == "users" && need(0):
		us, err := svc.Users(ctx)
		if err != nil {
			return report(env, err)
		}
		rows := [][]string{}
		for _, u := range us {
			roles := []string{}
			for _, r := range u.Roles {
				roles = append(roles, strings.TrimSuffix(r.Workspace+"/"+r.Project, "/")+"="+r.Role)
			}
			if u.Admin {
				roles = append(roles, "admin")
			}
			rows = append(rows, []string{u.ID, u.Name, strings.Join(roles, " ")})
		}
		printTable(env, []string{"ID", "NAME", "ROLES"}, rows)
	case sub == "add-user" && need(1):
		u, err := svc.AddUser(ctx, rest[0])
		if err != nil {
			return report(env, err)
		}
		fmt.Fprintln(out, u.ID)
	case sub == "role" && (need(3) || need(4)):
		project, role := "", rest[len(rest)-1]
		if need(4) {
			project = rest[2]
		}
		if role == "none" {
			role = ""
		}
		return done(env, svc.SetRole(ctx, rest[0], rest[1], project, role), "role saved")
	case sub == "signin-link":
		return signInLink(env, c, svc, dir, rest)
	default:
		return fail(env, c, "unknown subcommand or wrong arguments: %s", strings.Join(args, " "))
	}
	return 0
}

func connToolsFlags() (fs *flag.FlagSet, only, off *string) {
	fs = flag.NewFlagSet("connections tools", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	only = fs.String("only", "", "comma-separated tools to keep on (all others off)")
	off = fs.String("off", "", "comma-separated tools to turn off")
	return fs, only, off
}

func connTools(env *Env, c *Command, svc *connect.Service, args []string) int {
	fs, only, off := connToolsFlags()
	if strings.HasPrefix(args[0], "-") {
		return fail(env, c, "tools takes the connection first: tools CONN [--only a,b | --off a,b]")
	}
	if err := fs.Parse(args[1:]); err != nil {
		return fail(env, c, "%v (tools takes --only a,b or --off a,b)", err)
	}
	// flag stops at the first word that is not a flag: without this check
	// "tools CONN typo --off x" would ignore --off and report success.
	if fs.NArg() > 0 {
		return fail(env, c, "unexpected %q: tools CONN takes only --only a,b or --off a,b", strings.Join(fs.Args(), " "))
	}
	ctx := context.Background()
	id := args[0]
	if *only != "" || *off != "" {
		ts, err := svc.Tools(ctx, id)
		if err != nil {
			return report(env, err)
		}
		if err := unknownTools(ts, *only, *off); err != nil {
			return fail(env, c, "%v", err)
		}
		keep := []string{}
		for _, t := range ts {
			on := t.Enabled
			if *only != "" {
				on = contains(*only, t.Name)
			}
			if contains(*off, t.Name) {
				on = false
			}
			if on {
				keep = append(keep, t.Name)
			}
		}
		if err := svc.SaveTools(ctx, id, keep); err != nil {
			return report(env, err)
		}
	}
	ts, err := svc.Tools(ctx, id)
	if err != nil {
		return report(env, err)
	}
	rows := [][]string{}
	var onNames, offNames []string
	for _, t := range ts {
		mark := "[ ]"
		if t.Enabled {
			mark = "[x]"
			onNames = append(onNames, t.Name)
		} else {
			offNames = append(offNames, t.Name)
		}
		rows = append(rows, []string{mark, t.Name, t.Scope})
	}
	// The default text would be false once one is off: say what this
	// connection has, naming the shorter list.
	switch on := len(onNames); {
	case len(offNames) == 0:
		fmt.Fprintln(env.Stdout, connect.TextToolsOn)
	case on == 0:
		fmt.Fprintf(env.Stdout, "All %d tools are off.\n", len(ts))
	case len(offNames) <= on:
		fmt.Fprintf(env.Stdout, "%d of %d tools are on; turned off: %s.\n", on, len(ts), strings.Join(offNames, ", "))
	default:
		fmt.Fprintf(env.Stdout, "%d of %d tools are on: %s.\n", on, len(ts), strings.Join(onNames, ", "))
	}
	printTable(env, []string{"ON", "TOOL", "SCOPE"}, rows)
	return 0
}

// unknownTools names the tools in the --only and --off lists that this
// connection does not have, with the ones it has: a misspelt name would
// otherwise leave the tool on and say nothing.
func unknownTools(ts []connect.ToolSetting, lists ...string) error {
	known := map[string]bool{}
	names := make([]string, 0, len(ts))
	for _, t := range ts {
		known[t.Name] = true
		names = append(names, t.Name)
	}
	var bad []string
	for _, csv := range lists {
		for _, v := range strings.Split(csv, ",") {
			if v = strings.TrimSpace(v); v != "" && !known[v] && !slices.Contains(bad, v) {
				bad = append(bad, v)
			}
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return fmt.Errorf("unknown tool %s; the tools are: %s", safe(strings.Join(bad, ", ")), strings.Join(names, ", "))
}

func contains(csv, name string) bool {
	for _, v := range strings.Split(csv, ",") {
		if strings.TrimSpace(v) == name {
			return true
		}
	}
	return false
}

func signInLinkFlags() (fs *flag.FlagSet, user, base *string) {
	fs = flag.NewFlagSet("connections signin-link", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	user = fs.String("user", connect.OwnerID, "person to sign in (see `osfoundry connections users`)")
	base = fs.String("url", "", "server origin; default: the address `osfoundry serve` recorded")
	return fs, user, base
}

func signInLink(env *Env, c *Command, svc *connect.Service, dir string, args []string) int {
	fs, user, base := signInLinkFlags()
	if err := fs.Parse(args); err != nil {
		return fail(env, c, "%v", err)
	}
	if *base == "" {
		b, err := os.ReadFile(filepath.Join(dir, serverURLFile))
		if err != nil {
			return fail(env, c, "no running server recorded; start `osfoundry serve` or pass --url https://…")
		}
		*base = strings.TrimSpace(string(b))
	}
	tok, err := svc.SignInToken(context.Background(), *user, 0)
	if err != nil {
		return report(env, err)
	}
	fmt.Fprintf(env.Stdout, "%s/oauth/signin?token=%s\n(single use, valid %s)\n", strings.TrimRight(*base, "/"), tok, connect.SignInTTL)
	return 0
}

func done(env *Env, err error, msg string) int {
	if err != nil {
		return report(env, err)
	}
	fmt.Fprintln(env.Stdout, msg)
	return 0
}

func report(env *Env, err error) int {
	fmt.Fprintf(env.Stderr, "osfoundry connections: %v\n", err)
	if errors.Is(err, connect.ErrNotFound) || errors.Is(err, connect.ErrBadInput) || errors.Is(err, connect.ErrBadRole) {
		return 2
	}
	return 1
}
