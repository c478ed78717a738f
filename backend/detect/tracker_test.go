package detect

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/rules"
)

// pane is a fake pane: a screen the test edits and the updates it received.
type pane struct {
	mu      sync.Mutex
	lines   []string
	reads   int
	updates []Update
}

func (p *pane) set(lines ...string) { p.mu.Lock(); p.lines = lines; p.mu.Unlock() }
func (p *pane) screen() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.reads++
	return append([]string(nil), p.lines...)
}
func (p *pane) onState(u Update) { p.mu.Lock(); p.updates = append(p.updates, u); p.mu.Unlock() }

var (
	claudePrompt  = []string{"Do you want to make this edit to charge.ts?", "❯ 1. Yes", "  2. No"}
	claudeWorking = []string{"✻ Working… (2s · esc to interrupt)", "> ", "  ? for shortcuts"}
	claudeIdle    = []string{"● Done.", "> ", "  ? for shortcuts"}
)

func newTestTracker(t *testing.T, agent string) (*Tracker, *pane, *ManualClock) {
	t.Helper()
	clock := NewManualClock(time.Unix(1000, 0))
	p := &pane{}
	tr := NewTracker(TrackerConfig{ID: "p1", Registry: bundled(t), Screen: p.screen, Clock: clock, OnState: p.onState, Agent: agent})
	return tr, p, clock
}

func TestTrackerCoalescesBursts(t *testing.T) {
	tr, p, clock := newTestTracker(t, "claude")
	p.set(claudeWorking...)
	for i := 0; i < 50; i++ {
		tr.ScreenChanged()
		clock.Advance(100 * time.Microsecond)
	}
	clock.Advance(DefaultDelay)
	if tr.Evaluations() != 1 {
		t.Fatalf("50 changes within one delay gave %d evaluations, want 1", tr.Evaluations())
	}
	if d := tr.Current(); d.State != Working {
		t.Fatalf("state %s", d.State)
	}
	// A change after the evaluation schedules a new one.
	p.set(claudePrompt...)
	tr.ScreenChanged()
	clock.Advance(DefaultDelay - time.Millisecond)
	if tr.Current().State != Working {
		t.Fatal("evaluated before the delay")
	}
	clock.Advance(time.Millisecond)
	if d := tr.Current(); d.State != Blocked || d.Source != FromScreen {
		t.Fatalf("after delay: %s", d)
	}
	if len(p.updates) != 2 || p.updates[1].Prev.State != Working || p.updates[1].Decision.State != Blocked {
		t.Fatalf("updates = %+v", p.updates)
	}
	if !p.updates[1].At.Equal(time.Unix(1000, 0).Add(5*time.Millisecond + 2*DefaultDelay)) {
		t.Errorf("update time %v", p.updates[1].At)
	}
}

func TestTrackerReportsAndScreen(t *testing.T) {
	tr, p, clock := newTestTracker(t, "claude")
	step := func(lines []string) Decision {
		if lines != nil {
			p.set(lines...)
			tr.ScreenChanged()
		}
		clock.Advance(DefaultDelay)
		return tr.Current()
	}
	p.set(claudeIdle...)
	tr.Report(Signal{Source: FromHook, State: Working})
	if d := step(nil); d.State != Working || d.Source != FromHook {
		t.Fatalf("working report over an idle screen not yet redrawn: %s", d)
	}
	if d := step(claudeWorking); d.Source != FromHook {
		t.Fatalf("report should decide over working screen: %s", d)
	}
	// Permission request: the hook says blocked before the prompt is drawn.
	tr.Report(Signal{Source: FromHook, State: Blocked, Kind: "permission", Message: "Claude needs your permission to use Bash"})
	if d := step(nil); d.State != Blocked || d.Source != FromHook {
		t.Fatalf("blocked report: %s", d)
	}
	if d := step(claudePrompt); d.State != Blocked || d.Source != FromScreen || d.Message == "" {
		t.Fatalf("prompt on screen: %+v", d)
	}
	// A stale "done" can never hide a prompt that is on screen.
	tr.Report(Signal{Source: FromHook, State: Idle, Kind: "done"})
	if d := step(nil); d.State != Blocked {
		t.Fatalf("stale report hid the prompt: %s", d)
	}
	// The user presses Esc on the prompt: no hook fires. The screen losing
	// its prompt after the report supersedes it.
	tr.Report(Signal{Source: FromHook, State: Blocked, Kind: "permission"})
	clock.Advance(time.Millisecond)
	if d := step(claudeIdle); d.State != Idle || d.Source != FromScreen || d.Note != "hook report superseded by screen" {
		t.Fatalf("after Esc: %s", d)
	}
	// Same in a mode whose footer matches no rule (default idle).
	step(claudeWorking)
	tr.Report(Signal{Source: FromHook, State: Working})
	clock.Advance(time.Millisecond)
	if d := step([]string{"> ", "  ⏵⏵ accept edits on (shift+tab to cycle)"}); d.State != Idle || d.Source != FromDefault {
		t.Fatalf("after an interrupt in accept-edits mode: %s", d)
	}
	// kind=clear withdraws a report.
	tr.Report(Signal{Source: FromOSC, State: Working})
	if d := step(nil); d.State != Working {
		t.Fatalf("osc working: %s", d)
	}
	tr.Report(Signal{Source: FromOSC, Clear: true})
	if d := step(nil); d.State != Idle || d.Source != FromDefault {
		t.Fatalf("after clear: %s", d)
	}
}

// An answered prompt: the permission hooks said blocked and no hook
// reports the answer; the screen going from the prompt back to working is
// newer and wins, so the pane never shows a false "needs you".
func TestAnsweredPromptDropsBlockedHook(t *testing.T) {
	tr, p, clock := newTestTracker(t, "claude")
	step := func(lines ...string) Decision {
		p.set(lines...)
		tr.ScreenChanged()
		clock.Advance(DefaultDelay)
		return tr.Current()
	}
	step(claudeWorking...)
	tr.Report(Signal{Source: FromHook, State: Blocked, Kind: "permission"})
	clock.Advance(time.Millisecond)
	if d := step(claudePrompt...); d.State != Blocked {
		t.Fatalf("prompt: %s", d)
	}
	if d := step(claudeWorking...); d.State != Working || d.Source != FromScreen || d.Note != "hook report superseded by screen" {
		t.Fatalf("after the answer: %s", d)
	}
	// A blocked hook whose prompt the rules do not know stays blocked while
	// the screen does not change state.
	tr.Report(Signal{Source: FromHook, State: Blocked, Kind: "permission"})
	clock.Advance(time.Millisecond)
	if d := step(append([]string{"some unknown dialog"}, claudeWorking...)...); d.State != Blocked || d.Source != FromHook {
		t.Fatalf("unknown prompt: %s", d)
	}
}

// Codex hides its "Working (… esc to interrupt)" line while it streams an
// answer; its own OSC 7501 report keeps the pane working.
func TestOSCReportOutlivesScreenIdle(t *testing.T) {
	tr, p, clock := newTestTracker(t, "codex")
	tr.Report(Signal{Source: FromOSC, State: Working, App: "codex"})
	p.set("• Working (1s • esc to interrupt)", "› Ask Codex to do anything", "  ← for agents · ? for shortcuts")
	tr.ScreenChanged()
	clock.Advance(DefaultDelay)
	p.set("• Thinking it over step by step", "› Ask Codex to do anything", "  ← for agents · ? for shortcuts")
	tr.ScreenChanged()
	clock.Advance(DefaultDelay)
	if d := tr.Current(); d.State != Working || d.Source != FromOSC {
		t.Fatalf("streaming codex: %s", d)
	}
}

func TestTrackerFindsAgentAndEnd(t *testing.T) {
	tr, p, clock := newTestTracker(t, "")
	settle := func() Decision { clock.Advance(DefaultDelay); return tr.Current() }
	tr.SetProcess(Process{Name: "bash", Argv: []string{"-bash"}})
	p.set("$ cat notes.md", "Do you want to proceed?", "❯ 1. Yes")
	tr.ScreenChanged()
	if d := settle(); d.State != Idle || d.Source != FromNoAgent {
		t.Fatalf("a shell printing prompt-like text must not need the user: %s", d)
	}
	tr.SetProcess(Process{Name: "node", Argv: []string{"node", "/opt/@anthropic-ai/claude-code/cli.js"}})
	if d := settle(); d.State != Blocked || d.Agent != "claude" {
		t.Fatalf("claude in front with a prompt: %s", d)
	}
	tr.Report(Signal{Source: FromHook, State: Working})
	tr.SetProcess(Process{Name: "bash", Argv: []string{"-bash"}})
	if d := settle(); d.State != Idle || d.Source != FromProcess || !d.Ended {
		t.Fatalf("agent exited with its prompt still on screen: %s", d)
	}
	// Wrapper script: no agent process, the screen markers name it.
	tr2, p2, clock2 := newTestTracker(t, "")
	tr2.SetProcess(Process{Name: "bash", Argv: []string{"bash", "./run-agent.sh"}})
	p2.set(">_ OpenAI Codex (v0.169.0)", "", "Would you like to run the following command?")
	tr2.ScreenChanged()
	clock2.Advance(DefaultDelay)
	if d := tr2.Current(); d.State != Blocked || d.Agent != "codex" {
		t.Fatalf("wrapper-started codex: %s", d)
	}
	// An OSC report naming its app identifies the agent too.
	tr3, p3, clock3 := newTestTracker(t, "")
	p3.set("› 1. Yes, proceed", "Press Enter to confirm or Esc to cancel")
	tr3.Report(Signal{Source: FromOSC, State: Working, App: "codex"})
	clock3.Advance(DefaultDelay)
	if d := tr3.Current(); d.State != Blocked || d.Agent != "codex" {
		t.Fatalf("agent from osc app: %s", d)
	}
}

func TestTrackerTitle(t *testing.T) {
	tr, p, clock := newTestTracker(t, "claude")
	p.set("", "")
	tr.Title("⠐ Fix checkout retry")
	clock.Advance(DefaultDelay)
	if d := tr.Current(); d.State != Working || d.Source != FromTitle {
		t.Fatalf("spinner title: %s", d)
	}
	tr.Title("✳ Fix checkout retry")
	clock.Advance(DefaultDelay)
	if d := tr.Current(); d.State != Idle || d.Source != FromTitle {
		t.Fatalf("idle title: %s", d)
	}
}

func TestTrackerGuardsReadTheScreenNow(t *testing.T) {
	tr, p, clock := newTestTracker(t, "claude")
	p.set(claudeWorking...)
	tr.ScreenChanged()
	clock.Advance(DefaultDelay)
	// The prompt appears; no evaluation ran since (no ScreenChanged yet).
	p.set(claudePrompt...)
	if tr.Current().State != Working {
		t.Fatal("precondition: last decision is working")
	}
	if err := tr.CheckSend(); !errors.Is(err, ErrNeedsDecision) {
		t.Fatalf("send guard used a stale decision: %v", err)
	}
	if err := tr.CheckAnswer(); err != nil {
		t.Fatalf("answer guard: %v", err)
	}
}

func TestTrackerFloodOfReports(t *testing.T) {
	tr, p, clock := newTestTracker(t, "claude")
	p.set(claudeIdle...)
	for i := 0; i < 100000; i++ {
		tr.Report(Signal{Source: FromOSC, State: []State{Working, Idle}[i%2], App: "claude-code"})
	}
	clock.Advance(DefaultDelay)
	if n := tr.Evaluations(); n != 1 {
		t.Fatalf("a flood of reports gave %d evaluations, want 1", n)
	}
	if d := tr.Current(); d.State == Blocked {
		t.Fatalf("flood produced needs-you: %s", d)
	}
}

func TestSchedulerSweep(t *testing.T) {
	clock := NewManualClock(time.Unix(0, 0))
	s := NewScheduler(clock, 2*time.Second)
	var panes []*pane
	for i := 0; i < 3; i++ {
		p := &pane{}
		p.set(claudeIdle...)
		panes = append(panes, p)
		s.Add(NewTracker(TrackerConfig{Registry: bundled(t), Screen: p.screen, Clock: clock, Agent: "claude"}))
	}
	s.Start()
	clock.Advance(5 * time.Second)
	for i, p := range panes {
		if p.reads != 2 {
			t.Errorf("pane %d read %d times in 5 s of 2 s sweeps", i, p.reads)
		}
	}
	s.Stop()
	clock.Advance(10 * time.Second)
	if panes[0].reads != 2 {
		t.Errorf("sweep ran after Stop")
	}
}

func TestNotifierCooldown(t *testing.T) {
	clock := NewManualClock(time.Unix(0, 0))
	var sent []Notification
	n := NewNotifier(clock, func(nt Notification) { sent = append(sent, nt) })
	up := func(from, to State) Update {
		return Update{Prev: Decision{State: from}, Decision: Decision{State: to, Agent: "claude", Message: "Run npm test?"}}
	}
	steps := []struct {
		after   time.Duration
		session string
		u       Update
		want    bool
	}{
		{0, "a", up(Working, Blocked), true},
		{2 * time.Second, "a", up(Blocked, Working), false},
		{1 * time.Second, "a", up(Working, Blocked), false}, // flicker within 30 s
		{0, "b", up(Working, Blocked), true},                // other session has its own cooldown
		{0, "a", up(Blocked, Blocked), false},               // no change, no notification
		{28 * time.Second, "a", up(Working, Blocked), true}, // 31 s after the first
		{0, "a", up(Working, Idle), false},                  // idle is not notified by default
	}
	for i, s := range steps {
		clock.Advance(s.after)
		if got := n.Observe(s.session, "shop-api", s.u); got != s.want {
			t.Errorf("step %d: notified = %v, want %v", i, got, s.want)
		}
	}
	if len(sent) != 3 || sent[0].Title != "Needs you · shop-api" || sent[0].Body != "Run npm test?" {
		t.Fatalf("sent = %+v", sent)
	}
}

// Notifications name the agent as its rules file does, not by its id.
func TestNotificationNamesTheAgent(t *testing.T) {
	reg, _, err := Load(rules.Files, "")
	if err != nil {
		t.Fatal(err)
	}
	var sent []Notification
	m := NewMonitor(MonitorConfig{Registry: reg, Clock: NewManualClock(time.Unix(0, 0)), Notify: func(nt Notification) { sent = append(sent, nt) }})
	m.notifier.Observe("p-1", "shop-api", Update{Prev: Decision{State: Working}, Decision: Decision{State: Blocked, Agent: "claude"}})
	if len(sent) != 1 || sent[0].Body != "Claude Code is waiting for your decision." {
		t.Fatalf("sent = %+v", sent)
	}
}

// A hook's "working" that nothing ends — Claude Code's away recap runs as a
// subagent whose PreToolUse reports working and which never fires Stop —
// gives way to the idle prompt once it has stood there for
// HookWorkingGrace; a turn's own working footer, a still-young report and
// an OSC 7501 report keep their say.
func TestTrackerHookWorkingUnderIdlePrompt(t *testing.T) {
	working := Signal{Source: FromHook, State: Working, Kind: "working", App: "claude-code"}
	cases := []struct {
		name   string
		report Signal
		screen []string
		after  time.Duration
		want   State
	}{
		{"idle prompt past the grace", working, claudeIdle, HookWorkingGrace, Idle},
		{"idle prompt within the grace", working, claudeIdle, HookWorkingGrace - DefaultDelay, Working},
		{"working footer", working, claudeWorking, time.Minute, Working},
		{"osc7501 working under the idle prompt", Signal{Source: FromOSC, State: Working, App: "claude-code"}, claudeIdle, time.Minute, Working},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, p, clock := newTestTracker(t, "claude")
			p.set(c.screen...)
			tr.Evaluate()
			tr.Report(c.report)
			clock.Advance(DefaultDelay)
			if d := tr.Current(); d.State != Working {
				t.Fatalf("right after the report: %s, want working", d)
			}
			clock.Advance(c.after - DefaultDelay)
			d := tr.Evaluate() // what the safety sweep does on a still screen
			if d.State != c.want {
				t.Fatalf("%s after the report: %s, want %s", c.after, d, c.want)
			}
			if c.want == Idle && d.Note != "hook report working outlived by the idle prompt on screen" {
				t.Errorf("note %q does not say why the report was dropped", d.Note)
			}
		})
	}
}
