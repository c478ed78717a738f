package detect

import (
	"sync"
	"time"
)

// DefaultDelay is how long a Tracker waits after a screen change before
// reading the screen. Output arrives in bursts (Ink redraws a frame in a few
// writes); 20 ms lets a frame land, and one evaluation covers the whole
// burst, so a 10 Hz spinner costs 10 evaluations a second, not one per byte.
const DefaultDelay = 20 * time.Millisecond

// HookWorkingGrace is how long a hook's "working" report stands while the
// screen shows the agent's idle prompt. A turn draws its working footer
// within a frame or two of the hook, so this only has to cover the time
// between a hook and the next redraw; the safety sweep (DefaultSweep)
// re-reads a still screen after it.
const HookWorkingGrace = 2 * time.Second

// TrackerConfig wires one pane into detection.
type TrackerConfig struct {
	ID       string
	Registry *Registry
	// Screen returns the pane's visible lines (never the scrollback). It is
	// called without any Tracker lock held.
	Screen func() []string
	Clock  Clock         // nil: RealClock
	Delay  time.Duration // 0: DefaultDelay
	// OnState is called, in order, whenever the combined decision changes.
	// It must not call Evaluate, CheckSend or CheckAnswer synchronously.
	OnState func(Update)
	// Agent pins the agent when the app started it itself; "" = discover.
	Agent string
	// Process, if set, reads the pane's foreground process (tcgetpgrp); the
	// Scheduler's sweep polls it. Panes may instead call SetProcess.
	Process func() Process
}

// Update is one change of a pane's decision.
type Update struct {
	ID       string
	Prev     Decision
	Decision Decision
	At       time.Time
}

// Tracker keeps one pane's signals and decides its state: shortly after each
// screen change (coalesced), on every report, and when a Scheduler sweeps.
type Tracker struct {
	cfg TrackerConfig

	evalMu sync.Mutex // serialises evaluations so updates arrive in order

	mu         sync.Mutex
	pending    bool
	timer      Timer
	closed     bool
	agent      string
	pinned     bool
	report     *Signal
	reportAt   time.Time
	title      string
	ranAgent   bool // an agent was seen in the foreground since the last shell
	shellFront bool
	lastScreen Decision
	current    Decision
	evals      int
	busy       time.Duration
}

// NewTracker starts tracking a pane. Nothing is evaluated until the first
// ScreenChanged, Report or Evaluate.
func NewTracker(cfg TrackerConfig) *Tracker {
	if cfg.Clock == nil {
		cfg.Clock = RealClock()
	}
	if cfg.Delay <= 0 {
		cfg.Delay = DefaultDelay
	}
	t := &Tracker{cfg: cfg, agent: cfg.Agent, pinned: cfg.Agent != ""}
	t.current = Decision{State: Idle, Source: FromNoAgent, Agent: cfg.Agent}
	return t
}

// ID is the pane id given in the config.
func (t *Tracker) ID() string { return t.cfg.ID }

// ScreenChanged tells the tracker the pane's screen changed. The first call
// schedules an evaluation after Delay; calls before it runs are covered by
// it. Cheap enough to call on every PTY read.
func (t *Tracker) ScreenChanged() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.scheduleLocked()
}

func (t *Tracker) scheduleLocked() {
	if t.pending || t.closed {
		return
	}
	t.pending = true
	t.timer = t.cfg.Clock.AfterFunc(t.cfg.Delay, t.fire)
}

func (t *Tracker) fire() {
	t.mu.Lock()
	t.pending = false
	closed := t.closed
	t.mu.Unlock()
	if !closed {
		t.Evaluate()
	}
}

// Report records an agent report (hook or OSC 7501). The latest one counts;
// kind=clear withdraws it. A report naming its app identifies the agent.
func (t *Tracker) Report(s Signal) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s.Clear {
		t.report = nil
	} else {
		sig := s
		t.report = &sig
		t.reportAt = t.cfg.Clock.Now()
	}
	if t.agent == "" {
		a := agentForApp(s.App)
		if s.Source == FromACP {
			a = t.cfg.Registry.IdentifyACP(s.App) // the adapter, per the rules files
		}
		if a != "" && t.cfg.Registry.Get(a) != nil {
			t.agent = a
		}
	}
	t.scheduleLocked()
}

// agentForApp maps the names agents give themselves in OSC 7501 to rule files.
func agentForApp(app string) string {
	switch app {
	case "claude-code", "claude":
		return "claude"
	case "codex", "codex-cli":
		return "codex"
	case "gemini", "gemini-cli":
		return "gemini"
	}
	return ""
}

// Title records the pane's window title (OSC 0/2).
func (t *Tracker) Title(title string) {
	if len(title) > 1024 {
		title = title[:1024] // titles are one line; the patterns anchor at the start
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if title == t.title {
		return
	}
	t.title = title
	t.scheduleLocked()
}

// SetProcess records the PTY's foreground process. An agent process names
// the pane's agent; a shell (or the pane's program gone) after an agent
// means the agent ended, which also drops that run's reports.
func (t *Tracker) SetProcess(p Process) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.setProcessLocked(p)
	t.scheduleLocked()
}

func (t *Tracker) setProcessLocked(p Process) {
	agent := ""
	if !p.Gone && !p.Shell {
		agent = t.cfg.Registry.IdentifyProcess(p)
	}
	switch {
	case agent != "":
		if !t.pinned {
			t.agent = agent
		}
		t.ranAgent, t.shellFront = true, false
	case p.Gone || p.Shell || isInteractiveShell(p):
		if p.Gone && t.agent != "" {
			t.ranAgent = true // started as the pane's own program: no shell to return to
		}
		if t.ranAgent && !t.shellFront {
			t.report, t.title = nil, ""
		}
		t.shellFront = true
	default:
		t.shellFront = false
	}
}

// poll reads the foreground process through the config's Process callback,
// if any (the safety sweep does this; tcgetpgrp is too costly per byte).
func (t *Tracker) poll() {
	if t.cfg.Process == nil {
		return
	}
	p := t.cfg.Process()
	t.mu.Lock()
	t.setProcessLocked(p)
	t.mu.Unlock()
}

// SetAgent pins the pane's agent (the app started it, or the user said so).
func (t *Tracker) SetAgent(agent string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.agent, t.pinned = agent, agent != ""
	t.scheduleLocked()
}

// Current is the last decision, without re-reading the screen.
func (t *Tracker) Current() Decision {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.current
}

// Evaluations counts screen reads so far (for benchmarks).
func (t *Tracker) Evaluations() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.evals
}

// Busy is the wall time spent evaluating so far, screen read included (a
// cost statistic, measured on the real clock whatever Clock is injected).
func (t *Tracker) Busy() time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.busy
}

// Evaluate reads the screen now, combines all signals and returns the
// decision, calling OnState if it changed.
func (t *Tracker) Evaluate() Decision {
	t.evalMu.Lock()
	defer t.evalMu.Unlock()
	began := time.Now()
	var lines []string
	if t.cfg.Screen != nil {
		lines = t.cfg.Screen()
	}
	text := ScreenText(lines)
	now := t.cfg.Clock.Now()

	t.mu.Lock()
	t.evals++
	reg := t.cfg.Registry
	if t.agent == "" && !t.shellFront {
		t.agent = reg.identifyText(text)
	}
	ended := t.shellFront && t.ranAgent
	var screen Decision
	if rs := reg.Get(t.agent); rs != nil && !ended {
		// Once the agent exited its last screen may still show a prompt; the
		// shell being back in front is the fact that counts then.
		screen = rs.EvaluateText(text)
	} else {
		screen = Decision{State: Idle, Source: FromNoAgent}
	}
	note := ""
	// Hooks never fire when the user presses Esc on a prompt or interrupts a
	// turn, so a hook report can outlive what it reported. The screen
	// dropping its prompt or working indicator after the report arrived is
	// newer evidence: drop the report rather than keep a stale "needs you"
	// or "working". OSC 7501 reports are not dropped this way: the agent
	// sends one on every change, and Codex hides its working line while it
	// streams an answer.
	// The same holds when the user answers a prompt: the permission hooks
	// said blocked, nothing reports the answer until the next tool call or
	// the turn's end, and the screen going from the prompt back to working
	// is the newer evidence.
	if t.report != nil && t.report.Source == FromHook && t.evals > 1 && screen.State != t.report.State &&
		t.lastScreen.Source == FromScreen && t.lastScreen.State != screen.State && now.After(t.reportAt) {
		t.report = nil
		note = "hook report superseded by screen"
	}
	// A hook's "working" with nothing to end it: Claude Code runs some
	// work outside a turn — the away recap it writes when the person comes
	// back to an idle session — as a subagent whose tool calls fire
	// PreToolUse ("working") but which ends with SubagentStop, never Stop
	// (claude-2.1.328.idle.recap-tool). During a real turn the footer says
	// "esc to interrupt" (a working screen), so a screen that has read as
	// the idle prompt for HookWorkingGrace after the report is newer
	// evidence than the report. OSC 7501 reports are left alone: the agent
	// sends "done" itself, and reports working while only background work
	// runs behind the idle prompt.
	if t.report != nil && t.report.Source == FromHook && t.report.State == Working &&
		screen.Source == FromScreen && screen.State == Idle && now.Sub(t.reportAt) >= HookWorkingGrace {
		t.report = nil
		note = "hook report working outlived by the idle prompt on screen"
	}
	t.lastScreen = screen
	in := Inputs{Screen: screen, Report: t.report, ShellForeground: ended}
	if t.title != "" {
		if rs := reg.Get(t.agent); rs != nil {
			if st, ok := rs.TitleState(t.title); ok {
				in.Title = &Signal{Source: FromTitle, State: st, Kind: "title"}
			}
		}
	}
	d := Combine(in)
	if note != "" && d.Source == screen.Source {
		d.Note = note
	}
	prev := t.current
	t.current = d
	cb := t.cfg.OnState
	t.busy += time.Since(began)
	t.mu.Unlock()

	if cb != nil && changed(prev, d) {
		cb(Update{ID: t.cfg.ID, Prev: prev, Decision: d, At: now})
	}
	return d
}

func changed(a, b Decision) bool {
	return a.State != b.State || a.Source != b.Source || a.Rule != b.Rule || a.Agent != b.Agent ||
		a.Message != b.Message || a.Ended != b.Ended || a.Kind != b.Kind
}

// Close stops pending work; later calls do nothing.
func (t *Tracker) Close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.closed = true
	if t.timer != nil {
		t.timer.Stop()
	}
}

func (r *Registry) identifyText(text string) string {
	s := r.snap()
	for _, agent := range s.order {
		if s.sets[agent].MatchesMarkers(text) {
			return agent
		}
	}
	return ""
}
