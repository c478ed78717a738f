// Package panestate runs agent-state detection on every terminal pane: it
// feeds each pane's emulated screen, OSC sequences and foreground process
// to a detect.Monitor, gives each pane a hook channel secret (and Claude
// Code runs the app starts their --settings hooks), and publishes every
// pane's state with the reason that decided it. It also learns which
// conversation each agent pane runs, so a restore resumes it (resume.go,
// codex.go), and says a pane without an agent works while a program runs
// in it or it keeps printing (activity.go).
package panestate

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/backend/launch"
	"github.com/osfoundry/desktop/backend/panehook"
	"github.com/osfoundry/desktop/backend/terminal"
	"github.com/osfoundry/desktop/rules"
)

// EventState carries one PaneState whenever a pane's state or its reason
// changed (mirrored in frontend/src/lib/events.ts).
const EventState = "panes:state"

// EventFocus carries a pane id: the user clicked that pane's desktop
// notification, the window shows the pane.
const EventFocus = "panes:focus"

// Emitter sends one UI event; the app passes its Wails adapter.
type Emitter interface {
	Emit(event string, payload any)
}

// PaneState is a pane's detected state for the rail and the board.
type PaneState struct {
	ID    string `json:"id"`
	Label string `json:"label"` // the pane's folder, e.g. "shop-api"
	State string `json:"state"` // idle, working or blocked
	Agent string `json:"agent"` // rule set in use, "" when none recognised
	// AgentName is what the user calls the agent ("Claude Code"), "" when none.
	AgentName string `json:"agentName"`
	// Command is the program running in front of the shell of a pane
	// without an agent ("npm run dev"); "" while the shell is in front.
	Command string `json:"command,omitempty"`
	Source  string `json:"source"`
	Reason  string `json:"reason"`  // what decided, e.g. "rules/claude.toml rule 1 (blocked): …"
	Message string `json:"message"` // the agent's own summary of its prompt, if it sent one
	Ended   bool   `json:"ended"`   // the agent exited, the shell is back in front
	// Paused: the user froze the pane; State is what it was doing then
	// and is not live (a paused pane neither works nor needs you).
	Paused bool  `json:"paused"`
	Since  int64 `json:"since"` // unix ms when this state began
}

// Change is one entry of a pane's state history (the Done summary's
// "what it did").
type Change struct {
	At      time.Time
	State   string
	Agent   string
	Message string
}

// maxHistory bounds the state changes kept per pane.
const maxHistory = 200

// Config wires a Watcher.
type Config struct {
	Registry *detect.Registry
	Emitter  Emitter // nil: no events
	// Notify shows a desktop notification when a pane starts needing the
	// user (the Monitor applies the cooldown); nil: none.
	Notify func(detect.Notification)
	// Exe is this app's binary, run by Claude Code's hooks in its pane
	// helper mode; "" adds no hooks.
	Exe string
	// PermissionRequest reports whether the Claude Code that argv0 names
	// (looked up in env's PATH) supports the PermissionRequest hook; nil:
	// ClaudeSupportsPermissionRequest.
	PermissionRequest func(argv0 string, env []string) bool
	Clock             detect.Clock // nil: real clock
	Sweep             time.Duration
	// DataDir is the app's data folder, marked in every pane's environment
	// so a later run ends the Codex daemons of a run that was killed
	// (codexdaemon.go); "": none marked, none swept.
	DataDir string
}

// Watcher is detection for every pane of a terminal.Manager.
type Watcher struct {
	cfg   Config
	mgr   *terminal.Manager
	mon   *detect.Monitor
	hooks *panehook.Server

	codex   codexPanes
	daemons daemonReaper // Codex daemons started from panes (codexdaemon.go)

	mu      sync.Mutex
	base    map[string]PaneState // as detected, before activity (activity.go)
	act     map[string]activity
	stop    chan struct{}
	states  map[string]PaneState
	history map[string][]Change
	acp     map[string]*detect.ACPStream // panes running the app's ACP client (acp.go)
	subs    []func(PaneState)

	// early holds the hook reports of a pane whose program reported before
	// the pane's tracker existed: its hook secret is in the environment
	// from the start, and a fast program (a Notification hook in its first
	// milliseconds) reached the app before onCreate ran, so the report was
	// lost and the pane never showed it needed the person.
	earlyMu sync.Mutex
	early   map[string][]panehook.Report
}

// maxEarly bounds the reports kept for one pane before its tracker exists.
const maxEarly = 32

// New wires detection into mgr. Call it before any pane is created or
// restored, then Start.
func New(mgr *terminal.Manager, cfg Config) (*Watcher, error) {
	if cfg.PermissionRequest == nil {
		cfg.PermissionRequest = ClaudeSupportsPermissionRequest
	}
	w := &Watcher{cfg: cfg, mgr: mgr, states: map[string]PaneState{}, history: map[string][]Change{},
		base: map[string]PaneState{}, act: map[string]activity{}, stop: make(chan struct{}),
		early: map[string][]panehook.Report{}}
	w.daemons.data = cfg.DataDir
	srv, err := panehook.Start(w.onHook)
	if err != nil {
		return nil, err
	}
	w.hooks = srv
	notify := cfg.Notify
	if notify != nil {
		notify = w.notify
	}
	w.mon = detect.NewMonitor(detect.MonitorConfig{
		Registry: cfg.Registry, Clock: cfg.Clock, Sweep: cfg.Sweep,
		OnUpdate: w.onUpdate, Notify: notify,
	})
	mgr.SetLaunch(w.launch)
	mgr.Observe(w.onCreate, w.onChange, w.mon.HandleOSC, w.onExit)
	mgr.OnClose(w.onClose)
	mgr.OnPause(w.onPause)
	mgr.RedrawsOnResume(w.redrawsOnResume)
	mgr.SetResume(w.resumePlan)
	return w, nil
}

// Start begins the safety sweep, and ends the Codex daemons a killed run
// of the app left behind.
func (w *Watcher) Start() {
	w.mon.Start()
	w.startActivity(w.stop)
	go w.daemons.sweep()
}

// Close stops the sweep and the hook channel.
func (w *Watcher) Close() {
	w.mu.Lock()
	select {
	case <-w.stop:
	default:
		close(w.stop)
	}
	w.mu.Unlock()
	w.mon.Stop()
	w.hooks.Close()
	// The app quits (its panes were closed first): no pane's Codex daemon
	// outlives it.
	w.daemons.paneClosed("", true)
	w.daemons.reap()
}

// OnChange registers fn for every state change of any pane. fn runs on the
// detection goroutine: it must not block or evaluate synchronously.
func (w *Watcher) OnChange(fn func(PaneState)) {
	w.mu.Lock()
	w.subs = append(w.subs, fn)
	w.mu.Unlock()
}

// States lists every tracked pane's state, by id.
func (w *Watcher) States() []PaneState {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]PaneState, 0, len(w.states))
	for _, s := range w.states {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// State returns one pane's state.
func (w *Watcher) State(id string) (PaneState, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	s, ok := w.states[id]
	return s, ok
}

// History returns a pane's state changes, oldest first.
func (w *Watcher) History(id string) []Change {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]Change(nil), w.history[id]...)
}

// Evaluate re-reads a pane's screen and signals now (not the last sweep's
// result): what the board checks before ending a session.
func (w *Watcher) Evaluate(id string) (PaneState, bool) {
	t := w.mon.Tracker(id)
	if t == nil {
		return PaneState{}, false
	}
	t.Evaluate()
	return w.State(id)
}

// launch gives every pane its hook channel secret, and a Claude Code run
// the app starts its per-run hooks.
func (w *Watcher) launch(id string, argv, paneEnv []string) (env, args []string) {
	env = w.hooks.Register(id)
	w.daemons.remember(id, env)
	env = append(env, w.daemons.env()...)
	if w.agentOf(argv) == "codex" {
		w.watchCodex(id, paneEnv)
	}
	if w.cfg.Exe == "" || len(argv) == 0 || !isClaude(argv[0]) || hasFlag(argv, "--settings") {
		// A user's own --settings is theirs: the screen rules and the
		// status protocol still see the prompts without our hooks, and
		// the conversation is found from its transcript.
		if len(argv) > 0 && w.agentOf(argv) == "claude" {
			w.watchClaude(id, paneEnv)
		}
		return env, nil
	}
	perm := w.cfg.PermissionRequest(argv[0], paneEnv)
	return env, []string{"--settings", panehook.ClaudeSettings(w.cfg.Exe, perm)}
}

func isClaude(argv0 string) bool {
	b := strings.ToLower(filepath.Base(argv0))
	return b == "claude" || b == "claude.exe"
}

func hasFlag(argv []string, flag string) bool {
	for _, a := range argv[1:] {
		if a == flag || strings.HasPrefix(a, flag+"=") {
			return true
		}
	}
	return false
}

func (w *Watcher) onCreate(p *terminal.Pane) {
	id, argv := p.ID(), p.Argv()
	label := terminal.ShortName(p.Dir())
	agent := ""
	if len(argv) > 0 {
		agent = w.cfg.Registry.IdentifyProcess(detect.Process{Name: filepath.Base(argv[0]), Argv: argv})
	}
	// A pane started as a shell (or anything that is not the agent itself)
	// returns to its first program when the agent exits.
	ownShell := len(argv) == 0 || detect.IsShell(argv[0])
	emu := p.Emulator()
	process := func() detect.Process {
		if p.Exited() {
			return detect.Process{Gone: true}
		}
		pg, name := p.Foreground()
		return detect.Process{Name: name, Argv: procArgv(pg), Shell: ownShell && p.ShellInFront()}
	}
	w.earlyMu.Lock()
	defer w.earlyMu.Unlock()
	t, err := w.mon.Add(id, label, agent, emu.Lines, process)
	if err != nil {
		delete(w.early, id)
		return
	}
	w.mu.Lock()
	w.states[id] = PaneState{ID: id, Label: label, State: string(detect.Idle), Agent: agent, AgentName: w.agentName(agent),
		Source: string(detect.FromNoAgent), Reason: "no agent recognised", Since: time.Now().UnixMilli()}
	w.base[id] = w.states[id]
	w.mu.Unlock()
	t.ScreenChanged() // output may have arrived before the tracker existed
	// Reports that came first are applied in order, before any later one
	// (onHook waits on earlyMu).
	for _, r := range w.early[id] {
		w.apply(t, r)
	}
	delete(w.early, id)
}

func (w *Watcher) onChange(id string) {
	if t := w.mon.Tracker(id); t != nil {
		t.ScreenChanged()
	}
	w.outputArrived(id)
}

func (w *Watcher) onExit(id string, _ int) {
	if t := w.mon.Tracker(id); t != nil {
		t.SetProcess(detect.Process{Gone: true})
	}
}

func (w *Watcher) onClose(id string) {
	w.forgetCodex(id)
	w.daemons.paneClosed(id, false)
	go w.daemons.reap()
	w.mon.Remove(id)
	w.hooks.Forget(id)
	w.earlyMu.Lock()
	delete(w.early, id)
	w.earlyMu.Unlock()
	w.mu.Lock()
	delete(w.states, id)
	delete(w.base, id)
	delete(w.act, id)
	delete(w.history, id)
	delete(w.acp, id)
	w.mu.Unlock()
}

// onHook turns an authenticated hook report into an agent report. A
// malformed payload is dropped: a bad report never makes a pane need you.
func (w *Watcher) onHook(r panehook.Report) {
	w.earlyMu.Lock()
	t := w.mon.Tracker(r.Pane)
	if t == nil {
		if q := w.early[r.Pane]; len(q) < maxEarly {
			w.early[r.Pane] = append(q, r)
		}
		w.earlyMu.Unlock()
		return
	}
	w.earlyMu.Unlock()
	w.apply(t, r)
}

// apply hands one authenticated hook report to the pane's tracker.
func (w *Watcher) apply(t *detect.Tracker, r panehook.Report) {
	var s detect.Signal
	var err error
	switch r.Kind {
	case "report":
		s, err = detect.HookReport(r.Arg)
	case "notify":
		s, err = detect.HookNotification(r.Payload)
	case "session":
		w.onSession(r.Pane, r.Payload)
		return
	case "acp":
		w.onACP(t, r.Pane, r.Payload)
		return
	default:
		return
	}
	if err == nil {
		t.Report(s)
	}
}

func (w *Watcher) onUpdate(u detect.Update, label string) {
	d := u.Decision
	st := PaneState{ID: u.ID, Label: label, State: string(d.State), Agent: d.Agent, AgentName: w.agentName(d.Agent),
		Source: string(d.Source), Reason: d.String(), Message: d.Message, Ended: d.Ended, Since: u.At.UnixMilli()}
	w.mu.Lock()
	if _, ok := w.states[u.ID]; !ok {
		w.mu.Unlock()
		return // closed meanwhile
	}
	w.base[u.ID] = st
	w.setLocked(u.ID, w.composeLocked(u.ID), u.At)
	w.lookForCodexSession(u.ID)
}

// remember adds c to the pane's history, keeping the newest maxHistory.
// Called with w.mu held.
func (w *Watcher) remember(id string, c Change) {
	h := append(w.history[id], c)
	if len(h) > maxHistory {
		h = h[len(h)-maxHistory:]
	}
	w.history[id] = h
}

// publish unlocks w.mu (held by the caller) and tells the window and the
// subscribers the pane's new state.
func (w *Watcher) publish(st PaneState) {
	subs := w.subs
	w.mu.Unlock()
	if w.cfg.Emitter != nil {
		w.cfg.Emitter.Emit(EventState, st)
	}
	for _, f := range subs {
		f(st)
	}
}

// agentName is the agent's display name from its rules file ("" for none).
func (w *Watcher) agentName(agent string) string {
	if agent == "" {
		return ""
	}
	return w.cfg.Registry.DisplayName(agent)
}

// Registry is the rule set the watcher reads screens with (bundled rules
// plus the user's valid overrides), for other readers of pane screens.
func (w *Watcher) Registry() *detect.Registry { return w.cfg.Registry }

// OpenOptions are what the window's detection reports to.
type OpenOptions struct {
	Panes   *terminal.Manager
	Emitter Emitter
	// Notify shows a desktop notification (Config.Notify).
	Notify func(detect.Notification)
	// DataDir marks every pane (Config.DataDir).
	DataDir string
}

// Open is New for the app: the bundled rules with the user's overrides from
// their home (broken overrides are returned, not fatal), the command line
// beside this program as the hook helper, and desktop notifications
// through opts.Notify; panes are marked with the data folder opts.DataDir.
func Open(opts OpenOptions) (*Watcher, []error, error) {
	home, _ := os.UserHomeDir()
	reg, problems, err := detect.Load(rules.Files, home)
	if err != nil {
		return nil, nil, fmt.Errorf("loading the agent detection rules: %w", err)
	}
	// "" when this program cannot find itself: no hooks; the screen and
	// status reports still work.
	exe := launch.HookCommand()
	w, err := New(opts.Panes, Config{Registry: reg, Emitter: opts.Emitter, Notify: opts.Notify, Exe: exe, DataDir: opts.DataDir})
	return w, problems, err
}
