package cli

import (
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/osfoundry/desktop/backend/appdir"
	"github.com/osfoundry/desktop/backend/bridge"
	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/settings"
	"github.com/osfoundry/desktop/backend/toolpolicy"
	"github.com/osfoundry/desktop/backend/tools"
)

// NewMemorySearcher builds memory_search's full-text index over the app
// database and data folder: the notes store (FTS5 over Notes, knowledge
// articles and the knowledge folder). It is a variable so the composition
// root can swap the index; set to nil, the headless bridge does not offer
// memory_search at all.
var NewMemorySearcher = func(ctx context.Context, db *sql.DB, dataDir string) (tools.MemorySearcher, error) {
	return notes.Open(db, appdir.Knowledge(dataDir))
}

func init() {
	c := &Command{
		Name:  "bridge",
		Usage: "--allow a,b [--workspace W] [--folder DIR] [--channel C]",
		Help:  `Serve the app's tools as a per-run MCP bridge; prints {"url":…,"token":…} and serves until stdin closes or SIGTERM.`,
		Page: &Page{
			About: "The bridge every worker run gets, started on its own: an MCP endpoint on 127.0.0.1 that offers only the " +
				"tools named with --allow, behind a bearer token. It prints one JSON line with the url, the token and the " +
				"tools it offers; a tool this build lacks, or whose service is not configured, is named on stderr and left " +
				"out. Every call goes through Tool policy and into the audit, as in the app.",
			Flags:   func() *flag.FlagSet { fs, _ := bridgeFlags(); return fs },
			Example: "osfoundry bridge --allow memory_search,todo_list --folder .",
			Docs:    "README.md",
		},
	}
	c.Run = func(env *Env, args []string) int { return runBridge(env, c, args) }
	register(c)
}

type bridgeOpts struct{ allow, workspace, folder, channel string }

func bridgeFlags() (*flag.FlagSet, *bridgeOpts) {
	var o bridgeOpts
	fs := flag.NewFlagSet("bridge", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.allow, "allow", "", "comma-separated tool names to offer (required)")
	fs.StringVar(&o.workspace, "workspace", "default", "workspace the run is bound to")
	fs.StringVar(&o.folder, "folder", "", "the run's working folder (code_search, extract_content)")
	fs.StringVar(&o.channel, "channel", "headless", "channel the run is bound to")
	return fs, &o
}

func runBridge(env *Env, c *Command, args []string) int {
	fs, o := bridgeFlags()
	allow, workspace, folder, channel := &o.allow, &o.workspace, &o.folder, &o.channel
	if err := fs.Parse(args); err != nil {
		return fail(env, c, "%v", err)
	}
	if fs.NArg() > 0 {
		return fail(env, c, "unexpected argument %q", fs.Arg(0))
	}
	var names []string
	for _, n := range strings.Split(*allow, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return fail(env, c, "--allow is required: name the tools to offer, e.g. --allow memory_search,todo_list")
	}
	if *folder != "" {
		abs, err := filepath.Abs(*folder)
		if err == nil {
			_, err = os.Stat(abs)
		}
		if err != nil {
			return fail(env, c, "--folder %s: %v", *folder, err)
		}
		*folder = abs
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	exec, closeDB, err := headlessExecutor(ctx)
	if err != nil {
		fmt.Fprintf(env.Stderr, "osfoundry bridge: %v\n", err)
		return 1
	}
	defer closeDB()
	for _, n := range names {
		if _, ok := exec.Lookup(n); !ok {
			fmt.Fprintf(env.Stderr, "osfoundry bridge: not offering %s: no such tool in this build or its service is not configured\n", n)
		}
	}
	b, err := bridge.Start(ctx, bridge.Config{
		Workspace: *workspace, User: "local", Channel: *channel, Allow: names,
		Executor: exec, Folder: *folder, Source: "bridge:headless",
	})
	if err != nil {
		fmt.Fprintf(env.Stderr, "osfoundry bridge: %v\n", err)
		return 1
	}
	defer b.Close()
	line, _ := json.Marshal(struct {
		URL   string   `json:"url"`
		Token string   `json:"token"`
		Tools []string `json:"tools"`
	}{b.URL(), b.Token(), b.Tools()})
	fmt.Fprintln(env.Stdout, string(line))

	stdinClosed := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, env.Stdin)
		close(stdinClosed)
	}()
	select {
	case <-stdinClosed:
	case <-ctx.Done():
	}
	return 0
}

// headlessExecutor opens the app database and builds the real executor:
// SQLite audit, to-dos, memory_search when its index is wired, and the
// folder tools. No panes exist headless, and nobody is watching, so the
// live-screen tools are not offered.
func headlessExecutor(ctx context.Context) (*tools.Executor, func(), error) {
	db, dir, err := openAppDB()
	if err != nil {
		return nil, nil, err
	}
	var audit *tools.SQLAuditor
	fail := func(err error) (*tools.Executor, func(), error) {
		if audit != nil {
			audit.Close()
		}
		db.Close()
		return nil, nil, err
	}
	audit, err = tools.NewSQLAuditor(ctx, db)
	if err != nil {
		return fail(err)
	}
	todos, err := tools.NewTodos(ctx, db)
	if err != nil {
		return fail(err)
	}
	deps := tools.Deps{Todos: todos}
	if NewMemorySearcher != nil {
		if deps.Memory, err = NewMemorySearcher(ctx, db, dir); err != nil {
			return fail(fmt.Errorf("opening the memory index: %w", err))
		}
	}
	exec := tools.NewExecutor(tools.Options{Auditor: audit})
	if err := tools.RegisterBuiltins(exec, deps); err != nil {
		return fail(err)
	}
	// Settings → Tool policy: a damaged settings file gives no overrides
	// (the window says so when it starts).
	prefs, _ := settings.Open(dir)
	toolpolicy.NewBinding(prefs, exec)
	return exec, func() { audit.Close(); db.Close() }, nil
}
