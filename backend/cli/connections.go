package cli

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
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
		Help: "Manage Connected agents without a window: connections, their projects, tools, proposals, people's roles."}
	c.Run = func(env *Env, args []string) int { return runConnections(env, c, args) }
	register(c)
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
		Extra: []connect.ToolSource{msgres.Source{S: ms}}})
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
		rows := [][]string{}
		for _, x := range cs {
			rows = append(rows, []string{x.ID, x.DisplayName, x.Assistant, x.StatusText, x.Workspace, strings.Join(x.Projects, ","), strings.Join(x.Scopes, " ")})
		}
		printTable(env, []string{"ID", "NAME", "ASSISTANT", "STATUS", "WORKSPACE", "PROJECTS", "SCOPES"}, rows)
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

func connTools(env *Env, c *Command, svc *connect.Service, args []string) int {
	fs := flag.NewFlagSet("tools", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	only := fs.String("only", "", "comma-separated tools to keep on (all others off)")
	off := fs.String("off", "", "comma-separated tools to turn off")
	if err := fs.Parse(args[1:]); err != nil {
		return fail(env, c, "%v", err)
	}
	ctx := context.Background()
	id := args[0]
	if *only != "" || *off != "" {
		ts, err := svc.Tools(ctx, id)
		if err != nil {
			return report(env, err)
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

func contains(csv, name string) bool {
	for _, v := range strings.Split(csv, ",") {
		if strings.TrimSpace(v) == name {
			return true
		}
	}
	return false
}

func signInLink(env *Env, c *Command, svc *connect.Service, dir string, args []string) int {
	fs := flag.NewFlagSet("signin-link", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	user := fs.String("user", connect.OwnerID, "person to sign in (see `osfoundry connections users`)")
	base := fs.String("url", "", "server origin; default: the address `osfoundry serve` recorded")
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
