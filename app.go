package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/mac"

	"github.com/osfoundry/desktop/backend/appdir"
	"github.com/osfoundry/desktop/backend/applog"
	"github.com/osfoundry/desktop/backend/board"
	"github.com/osfoundry/desktop/backend/cli"
	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/connect/msgres"
	"github.com/osfoundry/desktop/backend/connect/notesres"
	"github.com/osfoundry/desktop/backend/desktopnotify"
	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/backend/instance"
	"github.com/osfoundry/desktop/backend/inventory"
	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/panestate"
	"github.com/osfoundry/desktop/backend/panestore"
	"github.com/osfoundry/desktop/backend/runnotify"
	"github.com/osfoundry/desktop/backend/settings"
	"github.com/osfoundry/desktop/backend/shellenv"
	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/terminal"
	"github.com/osfoundry/desktop/backend/toolpolicy"
	"github.com/osfoundry/desktop/backend/wailsui"
	"github.com/osfoundry/desktop/backend/workers"
)

// App is the composition root: it opens the store, builds the services,
// starts and stops them. Bound services do the work; App only wires.
type App struct {
	dir        string
	db         *sql.DB
	emit       *wailsui.Emitter
	panes      *terminal.Manager
	notes      *notes.Store // the one notes store every feature shares
	notesWatch *notes.Watcher
	conn       *connect.Server
	work       *workers.Workers // the one tool executor, approvals, CLI runner, pipeline
	watch      *panestate.Watcher
	notifier   *desktopnotify.Notifier
	inst       *instance.Instance // this window's claim on the data folder
	Board      *board.Service

	Terminal *terminal.Service
	Connect  *connect.Panel
	Picker   *notesres.Picker
	Notes    *notes.Binding
	Records  *notes.RecordsBinding
	Messages *messages.Binding
	Settings *settings.Binding
	Policy   *toolpolicy.Binding // Settings → Tool policy over the one executor
	prefs    *settings.Store

	inv       *inventory.Service
	invCancel context.CancelFunc
	Inventory *inventory.Binding
}

func newApp(dir string, inst *instance.Instance) (*App, error) {
	db, err := store.Open(filepath.Join(dir, store.FileName))
	if err != nil {
		return nil, err
	}
	a := &App{dir: dir, db: db, emit: &wailsui.Emitter{}, inst: inst}
	a.panes = terminal.NewManager(a.emit)
	ps, err := panestore.Open(context.Background(), db)
	if err != nil {
		return nil, err
	}
	a.panes.SetStore(ps)
	a.panes.ExpectRestore() // the window calls Terminal.RestoreSaved after its first frame
	a.Terminal = terminal.NewService(a.panes, resolvedEnviron)
	if a.inv, err = inventory.New(context.Background(), db, inventory.Options{Runner: shellRunner}); err != nil {
		return nil, err
	}
	a.inv.OnChange(func() { a.emit.Emit(inventory.EventChanged, nil) })
	a.Inventory = inventory.NewBinding(a.inv, func(dir string, argv []string) (string, error) {
		info, err := a.panes.Create(terminal.Options{Dir: dir, Argv: argv, Env: resolvedEnviron()})
		return info.ID, err
	})
	if a.notes, err = notes.Open(db, appdir.Knowledge(dir)); err != nil {
		return nil, err
	}
	a.notesWatch = notes.NewWatcher(a.notes, a.emit)
	a.Notes = notes.NewBinding(a.notes, a.notesWatch)
	a.Records = notes.NewRecordsBinding(a.notes, a.emit)
	ruleProblems, err := a.openDetection()
	if err != nil {
		return nil, err
	}
	a.openSettings()
	if a.work, err = workers.Open(context.Background(), workers.Options{DB: db, Emitter: a.emit,
		Memory: a.notes, Terminal: a.panes, Rules: a.watch.Registry(), DataDir: dir, Notify: a.show}); err != nil {
		return nil, err
	}
	a.work.Pipeline.SetHistory(continueHistory(a.inv))
	a.Policy = toolpolicy.NewBinding(a.prefs, a.work.Executor) // the saved overrides, from the first call
	if err := a.openConnect(); err != nil {
		return nil, err
	}
	a.openBoard(ruleProblems)
	return a, nil
}

// openDetection wires "Needs you" detection to every pane (before any pane
// starts) and returns the broken rule overrides it skipped. A click on a
// desktop notification raises the window on that pane, chat or run.
func (a *App) openDetection() ([]string, error) {
	a.notifier = desktopnotify.New("osFoundry", a.clicked)
	a.notifier.SetLink(func(key string) string {
		if kind, id, ok := runnotify.LinkOf(key); ok {
			return a.inst.Link(kind, id)
		}
		return a.inst.Link("pane", key)
	})
	w, problems, err := panestate.Open(a.panes, a.emit, a.show)
	if err != nil {
		return nil, err
	}
	var ruleProblems []string
	for _, p := range problems {
		fmt.Fprintln(os.Stderr, "osfoundry:", p)
		ruleProblems = append(ruleProblems, p.Error())
	}
	a.watch = w
	return ruleProblems, nil
}

// show displays a "Needs you" notification of a pane, chat or run off the
// caller's path: a toast runs PowerShell (~0.5 s), macOS may ask for
// permission first, and a stuck notification daemon must not hold up the
// next pane's evaluation or a run's approval request.
func (a *App) show(n detect.Notification) {
	go func() {
		if err := a.notifier.Show(desktopnotify.Message{Title: n.Title, Body: n.Body, Key: n.Session}); err != nil {
			fmt.Fprintln(os.Stderr, "osfoundry:", err)
		}
	}()
}

// clicked opens what a clicked desktop notification names: a chat or run
// (runnotify keys), else a pane.
func (a *App) clicked(key string) {
	if route, ok := runnotify.Route(key); ok {
		a.emit.Raise()
		a.emit.Emit(eventOpen, route)
		return
	}
	a.focusPane(key)
}

// focusPane raises the window on a pane (a desktop notification was
// clicked).
func (a *App) focusPane(pane string) {
	a.emit.Raise()
	if _, err := a.panes.Get(pane); err == nil {
		a.emit.Emit(panestate.EventFocus, pane)
	}
}

// launched handles a later launch of the app: the window comes to the
// front, and an osfoundry:// link this window made (a clicked Windows
// notification) opens its pane. Links from elsewhere open nothing.
func (a *App) launched(l instance.Launch) {
	a.emit.Raise()
	for _, arg := range l.Args {
		kind, id, err := a.inst.Open(arg)
		switch {
		case err == nil && kind == "pane":
			a.focusPane(id)
		case err == nil:
			if route, ok := runnotify.RouteOfLink(kind, id); ok {
				a.emit.Emit(eventOpen, route)
			}
		case err != nil && !errors.Is(err, instance.ErrNotLink):
			fmt.Fprintln(os.Stderr, "osfoundry:", err)
			a.emit.Emit(eventNotice, linkNotice(err))
		}
	}
}

// eventNotice carries a message for a notice over any screen (the
// frontend's 'app:notice' in src/lib/events.ts).
const eventNotice = "app:notice"

// eventOpen carries a window route to show, e.g. "/chat?chat=<id>" (a
// clicked notification of a chat or run; 'app:open' in src/lib/events.ts).
const eventOpen = "app:open"

type notice struct {
	Title string `json:"title"`
	Text  string `json:"text"`
}

// linkNotice says why an osfoundry:// link the OS handed over opened
// nothing: a web page or another program can start the app with one.
func linkNotice(err error) notice {
	text := "This osfoundry:// link is damaged (expected osfoundry://pane/<id>?t=<token>), so it opens nothing."
	if errors.Is(err, instance.ErrStaleLink) {
		text = "This osfoundry:// link was made by an earlier run of osFoundry, or not by osFoundry, so it opens nothing. Notifications from now on open their pane."
	}
	return notice{Title: "Link not opened", Text: text}
}

// openBoard builds the Sessions board over the panes and the pipeline.
func (a *App) openBoard(ruleProblems []string) {
	b := board.New(appdir.Knowledge(a.dir), a.emit)
	if err := b.Keep(context.Background(), a.db); err != nil {
		fmt.Fprintln(os.Stderr, "osfoundry: ended sessions will not outlive this run:", err)
	}
	sessions := board.NewStoreSessions(a.inv, a.watch.Registry().DisplayName)
	b.SetSessions(sessions)
	term := board.NewTerminal(a.panes, a.watch, b.Changed)
	term.SetSessions(sessions)
	b.Add("terminal", term)
	pipe := board.NewPipeline(a.work.Pipeline, b.Changed)
	teams := board.NewTeams(a.work.Orchestrator, board.RunStates(a.work.Pipeline))
	pipe.SetHidden(teams.ChildRuns)
	b.Add("pipeline", pipe)
	b.Add("orchestrate", teams)
	a.work.Orchestrator.OnChange(b.Changed)
	a.Board = board.NewService(b, a.watch)
	a.Board.SetRuleProblems(ruleProblems)
}

func (a *App) startup(ctx context.Context) {
	a.emit.SetContext(ctx)
	a.inst.Handle(a.launched)
	a.watch.Start()
	// Saved panes start after the window's first frame (the page calls
	// Terminal.RestoreSaved): four shells starting beside the web view cost
	// ~0.4 s of first paint on two cores. The timer covers a page that
	// never calls; the restore runs once either way.
	time.AfterFunc(5*time.Second, func() {
		if err := a.panes.RestoreExpected(resolvedEnviron()); err != nil {
			fmt.Fprintln(os.Stderr, "osfoundry:", err)
		}
	})
	var invCtx context.Context
	invCtx, a.invCancel = context.WithCancel(context.Background())
	go a.inv.Start(invCtx) // reads the other apps' stores off the UI's path
	if err := a.notesWatch.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "osfoundry:", err)
	}
	if err := a.Records.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "osfoundry:", err)
	}
	// A fixed port keeps the address assistants saved valid; when another
	// program holds it, any free loopback port still lets assistants connect.
	if err := a.conn.Start(connect.DefaultAddr); err != nil {
		if err := a.conn.Start("127.0.0.1:0"); err != nil {
			fmt.Fprintln(os.Stderr, "osfoundry:", err)
		}
	}
}

// openConnect builds the Connected agents endpoint over the notes store.
func (a *App) openConnect() error {
	ctx := context.Background()
	msgs, err := messages.Open(a.db, messages.Options{})
	if err != nil {
		return err
	}
	svc, err := connect.Open(ctx, a.db, connect.Options{Resources: msgres.Resources{Resources: notesres.New(a.notes), S: msgs},
		Runner: a.work.ConnectRunner(), Extra: []connect.ToolSource{msgres.Source{S: msgs}},
		// Local Folders are not per project: a change set applies to the
		// folder runs use (Settings → Local Folders).
		Repos: func(ctx context.Context, _ string) (string, error) { return a.work.Pipeline.CurrentFolder(ctx) },
	})
	if err != nil {
		return err
	}
	msgs.SetNameOf(msgres.NameOf(svc))
	// A run started for a project reads and posts in its discussion
	// channel through its bridge (workers offers the tools to such runs).
	for _, t := range msgs.RunTools() {
		if err := a.work.Executor.Register(t); err != nil {
			return fmt.Errorf("offering the message tools to runs: %w", err)
		}
	}
	a.Messages = messages.NewBinding(ctx, msgs, a.emit, a.notifyPost, nil)
	if a.conn, err = connect.NewServer(svc, connect.ServerConfig{}); err != nil {
		return err
	}
	a.Connect = connect.NewPanel(ctx, svc, a.conn)
	a.Picker = notesres.NewPicker(ctx, a.notes, msgs)
	return nil
}

// notifyPost tells the person an assistant posted (the binding keeps the
// per-channel cooldown); off the poster's path like every notification.
func (a *App) notifyPost(title, body, channel string) {
	go func() {
		if err := a.notifier.Show(desktopnotify.Message{Title: title, Body: body, Key: "channel:" + channel}); err != nil {
			fmt.Fprintln(os.Stderr, "osfoundry:", err)
		}
	}()
}

// shutdown ends every pane's whole session before the process exits.
func (a *App) shutdown(context.Context) {
	a.work.Close() // kills running CLI workers and their process groups
	if a.invCancel != nil {
		a.invCancel()
	}
	a.inv.Close()
	a.panes.CloseAll()
	a.watch.Close()
	a.notifier.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	a.conn.Close(ctx)
	cancel()
	a.notesWatch.Stop()
	a.Records.Stop()
	a.db.Close()
	a.inst.Close()
}

func runWindow(toFile bool) error {
	dir, err := appdir.Dir()
	if err != nil {
		return err
	}
	about := &About{info: AboutInfo{Version: cli.Version, DataDir: dir, LogFile: applog.Path(dir), LogToFile: toFile}}
	if toFile {
		if _, err := applog.Redirect(dir); err != nil {
			fmt.Fprintln(os.Stderr, "osfoundry:", err)
			about.info.LogToFile = false
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
	if err := displayReady(); err != nil {
		inst.Close()
		return err
	}
	if err := tuneWebView(); err != nil {
		inst.Close()
		return err
	}
	startShellEnv() // the login shell's PATH, when started from a desktop entry, Finder or Explorer
	a, err := newApp(dir, inst)
	if err != nil {
		inst.Close()
		return err
	}
	// SIGTERM/SIGINT/SIGHUP do not pass through Wails' shutdown hook: end
	// the panes here so no agent is left running without its window.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	go func() {
		<-sigs
		a.shutdown(context.Background())
		os.Exit(0)
	}()
	err = openWindow(a, &options.App{
		Title:            "osFoundry",
		Width:            1280,
		Height:           820,
		MinWidth:         720,
		MinHeight:        480,
		BackgroundColour: &options.RGBA{R: 24, G: 24, B: 27, A: 255},
		AssetServer:      &assetserver.Options{Assets: assets},
		OnStartup:        a.startup,
		OnShutdown:       a.shutdown,
		// macOS hands a clicked osfoundry:// link to the running app as an
		// Apple Event, not as an argument of a second process.
		Mac:  &mac.Options{OnUrlOpen: func(u string) { a.launched(instance.Launch{Args: []string{u}}) }},
		Bind: []any{about, a.Terminal, a.Inventory, a.Connect, a.Picker, a.Notes, a.Records, a.Messages, notes.NewKnowledgeBinding(a.notes), a.work.PipelineBinding, a.work.CodeBinding, a.work.ApprovalsBinding, a.work.OrchestrateBinding, a.Board, shellenv.NewBinding(), a.Settings, a.Policy, a.rulesBinding()},
	})
	if err != nil {
		return fmt.Errorf("running the window: %w", err)
	}
	return nil
}
