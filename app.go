package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/mac"
	"github.com/wailsapp/wails/v2/pkg/options/windows"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/appdir"
	"github.com/osfoundry/desktop/backend/applog"
	"github.com/osfoundry/desktop/backend/board"
	"github.com/osfoundry/desktop/backend/chat"
	"github.com/osfoundry/desktop/backend/cli"
	"github.com/osfoundry/desktop/backend/connect/connectwin"
	"github.com/osfoundry/desktop/backend/forge"
	"github.com/osfoundry/desktop/backend/instance"
	"github.com/osfoundry/desktop/backend/inventory"
	"github.com/osfoundry/desktop/backend/launch"
	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/panestate"
	"github.com/osfoundry/desktop/backend/panestore"
	"github.com/osfoundry/desktop/backend/quitask"
	"github.com/osfoundry/desktop/backend/remoteanswer"
	"github.com/osfoundry/desktop/backend/review"
	"github.com/osfoundry/desktop/backend/rulesupdate"
	"github.com/osfoundry/desktop/backend/settings"
	"github.com/osfoundry/desktop/backend/shellenv"
	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/teamclient"
	"github.com/osfoundry/desktop/backend/teamrunner"
	"github.com/osfoundry/desktop/backend/terminal"
	"github.com/osfoundry/desktop/backend/toolpolicy"
	"github.com/osfoundry/desktop/backend/usage"
	"github.com/osfoundry/desktop/backend/wailsui"
	"github.com/osfoundry/desktop/backend/windowlinks"
	"github.com/osfoundry/desktop/backend/workers"
)

// App is the composition root: it opens the store, builds each wing, binds
// their services (bound) and starts and stops them. Bound services do the
// work; App only wires.
type App struct {
	db    *sql.DB
	emit  *wailsui.Emitter
	inst  *instance.Instance // this window's claim on the data folder
	ended sync.Once          // shutdown runs once (see shutdown)

	panes      *terminal.Manager
	inv        *inventory.Service
	notes      *notes.Store // the one notes store every feature shares
	notesWatch *notes.Watcher
	links      *windowlinks.Router // desktop notifications and what opens them
	watch      *panestate.Watcher
	work       *workers.Workers // the one tool executor, approvals, CLI runner, pipeline
	conn       *connectwin.Connected
	prefs      *settings.Store
	usage      *usage.Service

	stopBackground context.CancelFunc // ends what startBackground started

	Terminal  *terminal.Service
	Inventory *inventory.Binding
	Notes     *notes.Binding
	Records   *notes.RecordsBinding
	Board     *board.Service
	Quit      *quitask.Guard // asks before the window quits while panes are at work
	Shown     *wailsui.Shown // the page's first frame is on screen: the background work starts
	Settings  *settings.Binding
	Policy    *toolpolicy.Binding  // Settings → Tool policy over the one executor
	Rules     *rulesupdate.Binding // Settings → Agent detection rules
	Usage     *usage.Binding       // the Usage screen and the board's usage line
	Review    *review.Service      // a pane branch's Review: diff, comments, Finish
	Forge     *forge.Binding       // push a branch and open its pull request (the Finish panel's dialog)
	prCards   *board.ForgeCards    // the requests opened from the app, on the branches' cards
	Team      *teamclient.Binding  // Settings → Team and the header's team status
	team      *teamclient.Client
	replica   *teamclient.Replica // this desktop's Synced projects
	runner    *teamclient.Runner  // "Run work for the team" (off by default)
	// TeamSessions is Settings → Team's "Share this computer's sessions".
	TeamSessions *teamclient.SessionsBinding
	sessions     *teamclient.SessionShare

	// Models lists the models each CLI accepts, for every model picker.
	Models *agentcli.ModelsBinding
}

func newApp(dir string, inst *instance.Instance) (*App, error) {
	db, err := store.Open(filepath.Join(dir, store.FileName))
	if err != nil {
		return nil, err
	}
	a := &App{db: db, emit: &wailsui.Emitter{}, inst: inst}
	a.panes = terminal.NewManager(a.emit)
	// New, restored and opened panes get the person's terminal environment
	// (shellenv.TerminalEnviron, once the login shell was read); one the
	// app starts as Claude Code loses ANTHROPIC_API_KEY, and says so.
	a.panes.SetEnvFilter(agentcli.PaneEnv)
	ps, err := panestore.Open(context.Background(), db)
	if err != nil {
		return nil, err
	}
	a.panes.SetStore(ps)
	a.panes.ExpectRestore() // the window calls Terminal.RestoreSaved after its first frame
	a.Terminal = terminal.NewService(a.panes, shellenv.TerminalEnviron)
	// External agents look CLIs up and run them with the login shell's PATH.
	shellRunner := inventory.ExecRunner{Environ: shellenv.Environ}
	if a.inv, err = inventory.New(context.Background(), db, inventory.Options{Runner: shellRunner}); err != nil {
		return nil, err
	}
	a.inv.OnChange(func() { a.emit.Emit(inventory.EventChanged, nil) })
	a.inv.OnTextProgress(func(st inventory.TextStatus) { a.emit.Emit(inventory.EventTextIndex, st) })
	a.Inventory = inventory.NewBinding(a.inv, func(dir string, argv []string) (string, error) {
		info, err := a.panes.Create(terminal.Options{Dir: dir, Argv: argv, Env: shellenv.TerminalEnviron()})
		return info.ID, err
	})
	if a.notes, err = notes.Open(db, appdir.Knowledge(dir)); err != nil {
		return nil, err
	}
	a.notesWatch = notes.NewWatcher(a.notes, a.emit)
	a.Notes = notes.NewBinding(a.notes, a.notesWatch)
	a.Records = notes.NewRecordsBinding(a.notes, a.emit)
	// A click on a desktop notification raises the window on that pane,
	// chat or run.
	a.links = windowlinks.New(windowlinks.Options{Window: a.emit, Links: a.inst, Log: os.Stderr,
		HasPane: func(id string) bool { _, err := a.panes.Get(id); return err == nil }})
	w, ruleProblems, err := panestate.Open(panestate.OpenOptions{Panes: a.panes, Emitter: a.emit, Notify: a.links.Show, DataDir: dir})
	if err != nil {
		return nil, err
	}
	a.watch = w
	if a.Review, err = review.ForWindow(context.Background(), review.WindowOptions{DB: db, Panes: a.panes, States: w,
		Env: shellenv.TerminalEnviron, Emitter: a.emit}); err != nil {
		return nil, err
	}
	home, _ := os.UserHomeDir()
	// Desktop notifications follow the Settings switch from the start.
	a.prefs, a.Settings, err = settings.OpenForWindow(dir, a.emit, home, func(p settings.Prefs) { a.links.SetEnabled(p.Notifications) })
	if err != nil {
		fmt.Fprintln(os.Stderr, "osfoundry:", err) // the defaults are in use
	}
	// Panes keep their output across restarts while Settings → Terminal says so.
	a.prefs.Follow(func(p settings.Prefs) {
		a.panes.SetScrollback(terminal.ScrollbackPolicy{Keep: p.Terminal.KeepScrollback, Lines: p.Terminal.Scrollback})
		a.emit.Emit(settings.EventTerminal, p.Terminal) // open pane views follow
	})
	// Usage reads Claude Code's and Codex's own files; its notification
	// (a window past 80 %) follows the same Settings switch.
	a.usage = usage.New(usage.Options{Home: home, Getenv: os.Getenv, NotifiedFile: filepath.Join(dir, "usage-notified.json"),
		Notify: func(title, body string) { a.links.ShowPost(title, body, "usage") }})
	a.Usage = usage.NewBinding(a.usage)
	// Joining a team is opt-in: until then it reads one missing file.
	a.team = teamclient.New(teamclient.Options{Dir: dir, Open: a.emit.OpenURL, Emit: a.emit})
	// Synced projects: nothing is sent until the person moves a project
	// to Synced; never joined, the replica reads no network at all.
	if a.replica, err = teamclient.NewReplica(context.Background(), a.team, a.notes, nil); err != nil {
		return nil, err
	}
	a.Team = teamclient.NewBinding(context.Background(), a.team, a.replica)
	// Session sharing is off until the person turns it on; it reads the board's cards (below).
	if a.sessions, err = teamclient.NewSessionShare(context.Background(), a.team, db, a.emit, nil); err != nil {
		return nil, err
	}
	a.TeamSessions = teamclient.NewSessionsBinding(context.Background(), a.sessions)
	if a.work, err = workers.Open(context.Background(), workers.Options{DB: db, Emitter: a.emit,
		Memory: a.notes, Terminal: a.panes, Rules: a.watch.Registry(), DataDir: dir, Notify: a.links.Show}); err != nil {
		return nil, err
	}
	// Team runs: none is claimed until the person turns on "Run work for the team".
	if a.runner, err = teamclient.NewRunner(context.Background(), a.team, db, teamrunner.Exec(a.work.Orchestrator, a.replica), nil); err != nil {
		return nil, err
	}
	teamclient.UseRunner(a.Team, a.runner)
	if err := remoteanswer.ForDesktop(a.sessions, a.panes, a.watch.Registry(), a.work); err != nil {
		return nil, err
	}
	a.work.Chat.SetHistory(chat.SessionHistory(a.inv))
	a.Models = agentcli.NewModelsBinding(a.work.Runner, a.usage.ClaudeModels)
	a.inv.SetRunSource(chat.InventoryRuns(a.work.Chat.Runs())) // the app's own runs show as such
	a.Policy = toolpolicy.NewBinding(a.prefs, a.work.Executor) // the saved overrides, from the first call
	var forgeOpener *forge.Opener
	if a.Forge, forgeOpener, a.prCards, err = board.OpenForge(dir); err != nil {
		return nil, err
	}
	if a.conn, err = connectwin.Open(context.Background(), connectwin.Options{DB: db, Notes: a.notes, Emitter: a.emit, PullRequests: forgeOpener,
		Runner: a.work.ConnectRunner(), RegisterTool: a.work.Executor.Register, Notify: a.links.ShowPost,
		CodeRepo: func(ctx context.Context, ws string) (string, string, error) {
			cs, err := a.work.Chat.Code().Settings(ctx, ws)
			return cs.Repo, cs.Problem, err
		}}); err != nil {
		return nil, err
	}
	a.replica.UseMessages(a.conn.Store) // a synced project's discussion channel syncs
	chat.ServeChannelAgents(context.Background(), a.conn.Messages, a.work.Chat)
	var rulesReloaded func(problems []error) // logs and shows what a reload of the rules could not use
	chats, jobs := a.work.BoardSources()
	a.Board, rulesReloaded = board.ForWindow(context.Background(), board.WindowOptions{Knowledge: appdir.Knowledge(dir),
		Emitter: a.sessions.Tee(a.emit), DB: db, Inventory: a.inv, Panes: a.panes, Watcher: a.watch,
		Chats: chats, Jobs: jobs, RuleProblems: ruleProblems, Log: os.Stderr, PullRequests: a.prCards, Shelf: board.NotesShelf(a.notes, appdir.Knowledge(dir))})
	if a.Rules, err = rulesupdate.ForWindow(home, a.watch, rulesReloaded); err != nil {
		fmt.Fprintln(os.Stderr, "osfoundry:", err)
	}
	a.Quit = quitask.New(a.watch.Busy, a.emit, a.emit.Quit)
	bg, stop := context.WithCancel(context.Background())
	a.stopBackground = stop
	a.Shown = wailsui.NewShown(func() {
		if bg.Err() == nil { // not after quitting
			a.startBackground(bg)
		}
	})
	return a, nil
}

// bound is every Go service the window binds, one a line: the screens
// call their methods, and `make bindings` writes the TypeScript of each
// one (and of every type they take or return) into
// frontend/src/lib/wailsjs, so a Go change that breaks a screen fails
// svelte-check instead of a person.
func (a *App) bound(about *settings.About) []any {
	return []any{
		about,
		a.Terminal,
		a.Inventory,
		a.conn.Panel,
		a.conn.Picker,
		a.Notes,
		a.Records,
		a.conn.Messages,
		notes.NewKnowledgeBinding(a.notes),
		a.work.ChatBinding,
		a.work.RolesBinding,
		a.work.CodeBinding,
		a.work.ApprovalsBinding,
		a.work.OrchestrateBinding,
		a.Board,
		a.Quit,
		a.Shown,
		shellenv.NewBinding(),
		a.Settings,
		a.Policy,
		a.Rules,
		a.Usage,
		a.Models,
		a.Review,
		a.Forge,
		a.Team,
		a.TeamSessions,
		&Events{},
	}
}

func (a *App) startup(ctx context.Context) {
	a.emit.SetContext(ctx)
	a.inst.Handle(a.links.Launched)
	a.watch.Start()
	// Saved panes and the background work start after the window's first
	// frame (the page calls Terminal.RestoreSaved and Shown.FirstFrame):
	// four shells starting beside the web view cost ~0.4 s of first paint
	// on two cores, the background work ~25 ms. The restore also begins
	// the read of the login shell the window held (shellenv.StartForWindow).
	// The timer covers a page that never calls; each runs once either way.
	time.AfterFunc(5*time.Second, func() {
		if err := a.panes.RestoreExpected(shellenv.TerminalEnviron()); err != nil {
			fmt.Fprintln(os.Stderr, "osfoundry:", err)
		}
		a.Shown.FirstFrame()
	})
	if err := a.notesWatch.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "osfoundry:", err)
	}
	if err := a.Records.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "osfoundry:", err)
	}
	if err := a.conn.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "osfoundry:", err)
	}
}

// startBackground starts what reads other apps' files and the network on
// its own schedule: the External agents index, usage, the team's status,
// synced projects, team runs, shared sessions and the pull requests'
// states. Nothing on screen waits for it; ctx ends it at quit.
func (a *App) startBackground(ctx context.Context) {
	go a.inv.Start(ctx) // reads the other apps' stores off the UI's path
	go a.usage.Watch(ctx, 20*time.Second, time.Minute)
	go a.team.Watch(ctx, time.Minute)
	go a.replica.Run(ctx)
	go a.runner.Run(ctx)
	go a.sessions.Run(ctx)
	go a.prCards.Follow(ctx, a.Forge, 2*time.Minute)
}

// shutdown ends every pane's whole session before the process exits. On
// SIGTERM and SIGINT both the handler in runWindow and Wails' own (which
// quits the window, then calls OnShutdown) call it at the same moment: the
// second call waits for the first to finish, for two passes closed the
// same channels twice, and the panic ended the app before its panes and
// their Codex daemons.
func (a *App) shutdown(context.Context) { a.ended.Do(a.end) }

func (a *App) end() {
	// Panes' output before anything else: when the session ends, the
	// display goes away with SIGTERM and can end the process any moment.
	if err := a.panes.SaveScrollbacks(); err != nil {
		fmt.Fprintln(os.Stderr, "osfoundry:", err)
	}
	a.work.Close()     // kills running CLI workers and their process groups
	a.stopBackground() // and a first frame after this starts nothing
	a.inv.Close()
	a.panes.CloseAll()
	a.watch.Close()
	a.links.Close()
	a.conn.Close()
	a.notesWatch.Stop()
	a.Records.Stop()
	a.db.Close()
	a.inst.Close()
}

// closeUnopened closes what newApp opened when the window could not open
// (Wails' shutdown hook does not run then; no pane was restored yet, that
// happens in the start hook).
func (a *App) closeUnopened() { a.shutdown(context.Background()) }

func runWindow(toFile bool) error {
	if wailsui.GeneratingBindings {
		return writeBindings()
	}
	dir, err := appdir.Dir()
	if err != nil {
		return err
	}
	info := settings.AboutInfo{Version: cli.Version, DataDir: dir, LogFile: applog.Path(dir), LogToFile: toFile}
	if toFile {
		if _, err := applog.Redirect(dir); err != nil {
			fmt.Fprintln(os.Stderr, "osfoundry:", err)
			info.LogToFile = false
		}
	}
	// One window per data folder: a later launch (the user starting the
	// app again, or Windows opening a clicked notification's link) hands
	// its arguments to the running window and ends here.
	wd, _ := os.Getwd()
	inst, err := instance.Claim(dir, instance.Launch{Args: os.Args[1:], Dir: wd}, 5*time.Second)
	if errors.Is(err, instance.ErrForwarded) {
		fmt.Println(err)
		return nil
	}
	if err != nil {
		return err
	}
	if err := launch.DisplayReady(); err != nil {
		inst.Close()
		return err
	}
	if err := wailsui.TuneWebView(); err != nil {
		inst.Close()
		return err
	}
	// The login shell's environment, when started from a desktop entry,
	// Finder or Explorer; its shell is ended on every way out of here.
	stopShellEnv := shellenv.StartForWindow()
	defer stopShellEnv()
	go agentcli.LogInstalls(os.Stderr)
	a, err := newApp(dir, inst)
	if err != nil {
		inst.Close()
		return err
	}
	// SIGHUP does not pass through Wails' shutdown hook (SIGTERM and SIGINT
	// do, from Wails' own handler, racing this one): end the panes here so
	// no agent is left running without its window.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	go func() {
		<-sigs
		a.shutdown(context.Background())
		stopShellEnv() // os.Exit skips the deferred call
		os.Exit(0)
	}()
	err = wailsui.Run(&options.App{
		Title:            "osFoundry",
		Width:            1280,
		Height:           820,
		MinWidth:         720,
		MinHeight:        480,
		StartHidden:      startHidden,
		BackgroundColour: &options.RGBA{R: 24, G: 24, B: 27, A: 255},
		AssetServer:      &assetserver.Options{Assets: assets},
		OnStartup:        a.startup,
		OnShutdown:       a.shutdown,
		OnBeforeClose:    a.Quit.BeforeClose, // not on SIGTERM: the handler above quits without asking
		// macOS hands a clicked osfoundry:// link to the running app as an
		// Apple Event, not as an argument of a second process.
		// The window is dark whatever the desktop's theme: native pieces
		// (a <select>'s popup menu) follow the window's appearance, not CSS.
		// On Linux, wailsui.TuneWebView asks GTK for its dark theme.
		Mac:     &mac.Options{OnUrlOpen: a.links.OpenURL, Appearance: mac.NSAppearanceNameDarkAqua},
		Windows: &windows.Options{Theme: windows.Dark},
		Bind:    a.bound(settings.NewAbout(info)),
	}, a.closeUnopened)
	if err != nil {
		return fmt.Errorf("running the window: %w", err)
	}
	return nil
}
