package cli

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/inventory"
)

func init() {
	c := &Command{
		Name:  "sessions",
		Usage: "list|find QUERY|show ID|resume ID [--json] [--home DIR] [--app APP] [--exec] [--yes] [--keep-permissions]",
		Help:  "List, search, read and safely resume past sessions of other AI apps on this machine (read-only).",
		Page: &Page{
			About: "Sessions of Claude Code, Codex, Gemini CLI and the other apps External agents knows are read from each " +
				"app's own files, never changed, and indexed in the app's database (or in memory with --home). " +
				"Flags may come before or after the ID or QUERY.",
			Subs: []Sub{
				{Name: "list", Usage: "[--app APP] [--json]", About: "Every session, newest first."},
				{Name: "find", Usage: "QUERY [--app APP] [--json]", About: "Sessions whose title, folder, branch, app or id has the words of QUERY."},
				{Name: "show", Usage: "ID [--rows N] [--json]", About: "The session's conversation, its first --rows rows."},
				{Name: "resume", Usage: "ID [--exec [--yes]] [--keep-permissions]", About: "Print the app's own resume command for the session, in its recorded " +
					"folder and without weakening its approval settings; --exec runs it (asking first when the folder's branch differs)."},
			},
			Flags:   func() *flag.FlagSet { fs, _ := sessionsFlagSet("list"); return fs },
			Example: "osfoundry sessions find \"flaky test\" --app claude-code",
			Docs:    "README.md",
		},
	}
	c.Run = func(env *Env, args []string) int { return runSessions(env, c, args) }
	register(c)
}

type sessionsFlags struct {
	json, exec, yes, keep bool
	home, app             string
	rows                  int
}

func runSessions(env *Env, c *Command, args []string) int {
	if len(args) == 0 {
		return fail(env, c, "name a subcommand: list, find, show or resume")
	}
	sub := args[0]
	fs, f := sessionsFlagSet(sub)
	// Flags may come before or after the positional argument.
	var pos []string
	rest := args[1:]
	for len(rest) > 0 {
		if err := fs.Parse(rest); err != nil {
			return fail(env, c, "%v", err)
		}
		rest = fs.Args()
		if len(rest) > 0 {
			pos = append(pos, rest[0])
			rest = rest[1:]
		}
	}
	return runSessionsSub(env, c, sub, pos, *f)
}

// sessionsFlagSet is the flag set every sessions subcommand parses.
func sessionsFlagSet(sub string) (*flag.FlagSet, *sessionsFlags) {
	fs := flag.NewFlagSet("sessions "+sub, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var f sessionsFlags
	fs.BoolVar(&f.json, "json", false, "print JSON")
	fs.StringVar(&f.home, "home", "", "read the apps' stores under this home folder instead of yours")
	fs.StringVar(&f.app, "app", "", "only this app (claude-code, codex-cli, …)")
	fs.BoolVar(&f.exec, "exec", false, "resume: run the command in the session's folder")
	fs.BoolVar(&f.yes, "yes", false, "resume --exec: open even when the branch differs")
	fs.BoolVar(&f.keep, "keep-permissions", false, "resume: keep a recorded approval mode that asks less than the default")
	fs.IntVar(&f.rows, "rows", 200, "show: how many conversation rows to print")
	return fs, &f
}

func runSessionsSub(env *Env, c *Command, sub string, pos []string, f sessionsFlags) int {
	ctx := context.Background()
	svc, closeDB, err := openSessions(ctx, f.home)
	if err != nil {
		fmt.Fprintf(env.Stderr, "osfoundry sessions: %v\n", err)
		return 1
	}
	defer closeDB()
	if _, err := svc.Refresh(ctx); err != nil {
		fmt.Fprintf(env.Stderr, "osfoundry sessions: %v\n", err)
		return 1
	}
	switch sub {
	case "list", "find":
		q := strings.Join(pos, " ")
		if sub == "find" && q == "" {
			return fail(env, c, "find needs a QUERY (words of a title, folder, branch, app or id)")
		}
		return printSessions(env, svc.List(q, inventory.AppID(f.app)), f.json)
	case "show":
		if len(pos) != 1 {
			return fail(env, c, "show needs one session ID")
		}
		return showSession(ctx, env, svc, pos[0], f)
	case "resume":
		if len(pos) != 1 {
			return fail(env, c, "resume needs one session ID")
		}
		return resumeSession(ctx, env, svc, pos[0], f)
	}
	return fail(env, c, "unknown subcommand %q: use list, find, show or resume", sub)
}

// openSessions opens the service over the app database, or in memory when
// --home points elsewhere (so a test home never touches the app's cache).
func openSessions(ctx context.Context, home string) (*inventory.Service, func(), error) {
	if home != "" {
		abs, err := filepath.Abs(home)
		if err != nil {
			return nil, nil, fmt.Errorf("resolving --home: %w", err)
		}
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			return nil, nil, fmt.Errorf("--home %s is not a folder", abs)
		}
		svc, err := inventory.New(ctx, nil, inventory.Options{Env: inventory.Env{Home: abs}})
		return svc, func() {}, err
	}
	db, _, err := openAppDB()
	if err != nil {
		return nil, nil, err
	}
	svc, err := inventory.New(ctx, db, inventory.Options{})
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	return svc, func() { closeQuiet(db) }, nil
}

func closeQuiet(db *sql.DB) { _ = db.Close() }

func printSessions(env *Env, ss []inventory.Session, asJSON bool) int {
	if asJSON {
		return printJSON(env, ss)
	}
	now := time.Now()
	rows := make([][]string, 0, len(ss))
	for _, s := range ss {
		id := s.ID
		if len(id) > 8 {
			id = id[:8]
		}
		// printTable shows every cell through safe().
		rows = append(rows, []string{s.AppName, id, s.Title, s.FolderName, s.Branch, inventory.Ago(now, s.UpdatedMs)})
	}
	printTable(env, []string{"APP", "ID", "TITLE", "FOLDER", "BRANCH", "LAST USED"}, rows)
	return 0
}

func printJSON(env *Env, v any) int {
	if err := writeJSON(env.Stdout, v); err != nil {
		fmt.Fprintf(env.Stderr, "osfoundry sessions: writing JSON: %v\n", err)
		return 1
	}
	return 0
}

func showSession(ctx context.Context, env *Env, svc *inventory.Service, ref string, f sessionsFlags) int {
	d, err := svc.Detail(ref)
	if err != nil {
		fmt.Fprintf(env.Stderr, "osfoundry sessions: %v\n", err)
		return 1
	}
	page, err := svc.Transcript(ctx, d.Session.Key, 0, f.rows)
	if err != nil {
		fmt.Fprintf(env.Stderr, "osfoundry sessions: %v\n", err)
		return 1
	}
	if f.json {
		return printJSON(env, struct {
			inventory.Detail
			Page inventory.Page `json:"page"`
		}{d, page})
	}
	for _, fl := range d.Fields {
		fmt.Fprintf(env.Stdout, "%-20s %s\n", safe(fl.Label), safe(fl.Value))
	}
	fmt.Fprintln(env.Stdout)
	for _, r := range page.Rows {
		label := r.Kind
		if r.Name != "" {
			label += " " + r.Name
		}
		text := clip(strings.ReplaceAll(r.Text, "\n", " "), 200)
		fmt.Fprintf(env.Stdout, "%-22s %s\n", safe(label), safe(text))
	}
	if !page.Done {
		fmt.Fprintf(env.Stdout, "… more (use --rows to print more)\n")
	}
	return 0
}

func resumeSession(ctx context.Context, env *Env, svc *inventory.Service, ref string, f sessionsFlags) int {
	plan, err := svc.PlanResume(ctx, ref, inventory.PlanOptions{KeepPermissions: f.keep})
	if err != nil {
		fmt.Fprintf(env.Stderr, "osfoundry sessions: %v\n", err)
		if errors.Is(err, inventory.ErrFolderMissing) {
			return 3
		}
		return 1
	}
	if f.json && !f.exec {
		return printJSON(env, plan)
	}
	fmt.Fprintf(env.Stdout, "folder  %s\nargv    %s\n", safe(plan.Folder), safe(quoteArgv(plan.Argv)))
	for _, v := range plan.Values {
		fmt.Fprintf(env.Stdout, "        %s %s: %s\n", safe(v.Label), safe(v.Value), safe(v.Handling))
	}
	for _, w := range plan.Warnings {
		fmt.Fprintf(env.Stdout, "warning %s\n", safe(w))
	}
	if plan.Ask {
		fmt.Fprintf(env.Stdout, "ask     %s\n", safe(plan.Question))
	}
	if !f.exec {
		return 0
	}
	if plan.Ask && !f.yes {
		fmt.Fprintf(env.Stdout, "Open anyway? [y/N] ")
		line, _ := bufio.NewReader(env.Stdin).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
			fmt.Fprintln(env.Stdout, "Cancelled.")
			return 1
		}
	}
	bin, err := exec.LookPath(plan.Argv[0])
	if err != nil {
		fmt.Fprintf(env.Stderr, "osfoundry sessions: %s is not installed or not on PATH: %v\n", plan.Argv[0], err)
		return 1
	}
	cmd := exec.CommandContext(ctx, bin, plan.Argv[1:]...) // argv, never a shell string
	cmd.Dir = plan.Folder
	cmd.Stdin, cmd.Stdout, cmd.Stderr = env.Stdin, env.Stdout, env.Stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		fmt.Fprintf(env.Stderr, "osfoundry sessions: running %s: %v\n", plan.Argv[0], err)
		return 1
	}
	return 0
}

// quoteArgv renders argv for reading (single-quoting what needs it); it is
// display only — the command runs from the argv itself.
func quoteArgv(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if a != "" && strings.IndexFunc(a, func(r rune) bool {
			return !(r == '-' || r == '_' || r == '.' || r == '/' || r == ':' || r == '=' ||
				(r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9'))
		}) < 0 {
			out[i] = a
		} else {
			out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(out, " ")
}
