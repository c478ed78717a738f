package detect

import (
	"errors"
	"sync"
	"time"
)

// MonitorConfig wires detection for all of the app's panes.
type MonitorConfig struct {
	Registry *Registry
	Clock    Clock         // nil: RealClock
	Delay    time.Duration // 0: DefaultDelay
	Sweep    time.Duration // 0: DefaultSweep
	// OnUpdate receives every decision change of every pane (board, rail).
	// Same rule as Tracker.OnState: it must not evaluate synchronously.
	OnUpdate func(u Update, label string)
	// Notify shows a desktop notification; nil means none. Called at most
	// once per NotifyCooldown per pane and state.
	Notify func(Notification)
}

// Monitor is detection for a set of panes: a Tracker each, the safety
// sweep over all of them, and desktop notifications with their cooldown.
type Monitor struct {
	cfg      MonitorConfig
	sched    *Scheduler
	notifier *Notifier

	mu     sync.Mutex
	panes  map[string]*Tracker
	labels map[string]string
}

// NewMonitor builds a monitor; call Start to begin the safety sweep.
func NewMonitor(cfg MonitorConfig) *Monitor {
	if cfg.Clock == nil {
		cfg.Clock = RealClock()
	}
	m := &Monitor{cfg: cfg, sched: NewScheduler(cfg.Clock, cfg.Sweep), panes: map[string]*Tracker{}, labels: map[string]string{}}
	m.notifier = NewNotifier(cfg.Clock, cfg.Notify)
	m.notifier.names = cfg.Registry.DisplayName
	return m
}

// Start and Stop the safety sweep.
func (m *Monitor) Start() { m.sched.Start() }
func (m *Monitor) Stop()  { m.sched.Stop() }

// ErrPaneExists is returned by Add for an id already tracked.
var ErrPaneExists = errors.New("pane already tracked")

// Add starts tracking a pane. label is what the user calls it (its folder,
// e.g. "shop-api"); screen reads its visible lines; process (optional)
// reads its foreground process for the sweep. agent pins the agent when the
// app started it ("" = discover).
func (m *Monitor) Add(id, label, agent string, screen func() []string, process func() Process) (*Tracker, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.panes[id]; ok {
		return nil, ErrPaneExists
	}
	t := NewTracker(TrackerConfig{
		ID: id, Registry: m.cfg.Registry, Screen: screen, Clock: m.cfg.Clock, Delay: m.cfg.Delay,
		Agent: agent, Process: process, OnState: m.onState,
	})
	m.panes[id], m.labels[id] = t, label
	m.sched.Add(t)
	return t, nil
}

func (m *Monitor) onState(u Update) {
	m.mu.Lock()
	label := m.labels[u.ID]
	m.mu.Unlock()
	m.notifier.Observe(u.ID, label, u)
	if m.cfg.OnUpdate != nil {
		m.cfg.OnUpdate(u, label)
	}
}

// Remove stops tracking a pane (closed, or its session ended).
func (m *Monitor) Remove(id string) {
	m.mu.Lock()
	t := m.panes[id]
	delete(m.panes, id)
	delete(m.labels, id)
	m.mu.Unlock()
	if t != nil {
		m.sched.Remove(t)
		m.notifier.Forget(id)
	}
}

// Tracker returns a pane's tracker, or nil.
func (m *Monitor) Tracker(id string) *Tracker {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.panes[id]
}

// SetLabel renames a pane (its folder changed).
func (m *Monitor) SetLabel(id, label string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.panes[id]; ok {
		m.labels[id] = label
	}
}

// HandleOSC feeds a pane's OSC sequence (the emulator's OnOSC callback):
// titles (0, 2) and Program Status Protocol reports (7501). It is safe to
// call with the emulator locked: it only records and schedules. The probe
// itself is answered by the terminal, not here. Malformed reports are
// dropped: a bad report must never make a pane "need you".
func (m *Monitor) HandleOSC(id string, num int, payload string) {
	t := m.Tracker(id)
	if t == nil {
		return
	}
	switch num {
	case 0, 2:
		t.Title(payload)
	case OSCStatus:
		if s, err := ParseOSC7501(payload); err == nil {
			t.Report(s)
		}
	}
}
