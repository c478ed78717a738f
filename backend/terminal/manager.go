package terminal

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// Emitter delivers pane events to the UI. The app passes a Wails adapter;
// tests pass a recorder. Backend packages never import the Wails runtime.
type Emitter interface {
	Emit(event string, payload any)
}

// Event names (mirrored in frontend/src/lib/events.ts).
const (
	EventOutput = "pane:output" // OutputEvent, at most one per frame per pane
	EventExit   = "pane:exit"   // ExitEvent
	EventPanes  = "panes:changed"
)

// OutputEvent carries a batch of UI bytes, base64-encoded (the output may
// hold invalid UTF-8, which JSON strings cannot carry).
type OutputEvent struct {
	ID   string `json:"id"`
	Seq  uint64 `json:"seq"`
	Data []byte `json:"data" ts_type:"string"` // base64 in JSON
}

// ExitEvent says a pane's program ended.
type ExitEvent struct {
	ID   string `json:"id"`
	Code int    `json:"code"`
}

// Info describes a pane for the rail.
type Info struct {
	ID         string   `json:"id"`
	Pid        int      `json:"pid"` // session leader; every process of the pane is in its session
	Dir        string   `json:"dir"`
	Folder     string   `json:"folder"` // short name
	Argv       []string `json:"argv"`
	Foreground string   `json:"foreground"` // program holding the terminal
	// ShellInFront: the pane's own first program (usually the shell) holds
	// the terminal, so nothing started from it runs in front.
	ShellInFront bool   `json:"shellInFront"`
	Title        string `json:"title"`
	Cols         int    `json:"cols"`
	Rows         int    `json:"rows"`
	Exited       bool   `json:"exited"`
	ExitCode     int    `json:"exitCode"`
	Paused       bool   `json:"paused"`    // frozen by Pause until Resume
	CanPause     bool   `json:"canPause"`  // Pause works for this pane here
	StartedAt    int64  `json:"startedAt"` // unix ms
	// Command is the command line of the program holding the terminal
	// ("npm run dev"), what tells twenty panes in one folder apart.
	Command string `json:"command"`
	// Session is the id of the conversation the pane's agent reported
	// ("" when none); Resumed says how a restore brought it back.
	Session string `json:"session,omitempty"`
	Resumed string `json:"resumed,omitempty"`
	// Name is what the person called the pane ("" until renamed): the rail
	// and the Sessions board show it instead of the folder.
	Name string `json:"name,omitempty"`
	// Branch is the pane's own branch (nil for a pane in a plain folder);
	// Added and Removed count its lines since the base, work not yet
	// committed included.
	Branch  *Branch `json:"branch,omitempty"`
	Added   int     `json:"added,omitempty"`
	Removed int     `json:"removed,omitempty"`
}

// Manager owns the app's panes.
type Manager struct {
	emit Emitter
	mu   sync.Mutex
	pan  map[string]*Pane
	// specs remembers open panes across restarts (nil: nothing is kept).
	specs SpecStore
	// storeMu orders a pane's saves with Close's delete: a save that found
	// the pane open (a conversation reported, a rename) must not write its
	// row after Close deleted it, or the closed pane comes back at the next
	// start.
	storeMu sync.Mutex
	// Hooks for observers (detection): called for every pane.
	onChange []func(id string)
	onOSC    []func(id string, num int, payload string)
	onExit   []func(id string, code int)
	onCreate []func(p *Pane)
	launch   Launch
	onClose  []func(id string)
	onPause  []func(id string, paused bool)
	redraws  func(id string) bool // see RedrawsOnResume
	views    views                // attached views per pane (views.go)
	resume   Resume               // see SetResume
	// envFilter adjusts each pane's environment for its program (paneenv.go).
	envFilter EnvFilter
	// nextPos is the rail position the next new pane gets.
	nextPos int
	// restoring is open from ExpectRestore until Restore returns;
	// restoreDue says RestoreExpected has not run it yet.
	restoring  chan struct{}
	restoreDue bool
	// branches: port offsets and +/− counts of branch panes (branch.go).
	branches branchState
	// scroll: whether and how panes' output is kept across restarts
	// (scrollback.go).
	scroll scrollbackState
}

// OnClose registers fn, called after a pane was closed and forgotten.
func (m *Manager) OnClose(fn func(id string)) {
	m.mu.Lock()
	m.onClose = append(m.onClose, fn)
	m.mu.Unlock()
}

// Launch gives the app a say in how a pane's program starts: environment
// entries to add (the hook channel's per-pane secret) and flags appended to
// argv for this run only (an agent's per-run hook settings). argv is the
// command as the user gave it (empty: the shell), env the environment it
// gets (nil: the app's own).
type Launch func(id string, argv, env []string) (extraEnv, args []string)

// SetLaunch sets the Launch hook used by every later Create and Restore.
func (m *Manager) SetLaunch(f Launch) {
	m.mu.Lock()
	m.launch = f
	m.mu.Unlock()
}

type nopEmitter struct{}

func (nopEmitter) Emit(string, any) {}

// NewManager returns a Manager emitting to em (nil: nowhere).
func NewManager(em Emitter) *Manager {
	if em == nil {
		em = nopEmitter{}
	}
	return &Manager{emit: em, pan: map[string]*Pane{}}
}

// Observe registers callbacks run for every pane. Call before Create.
func (m *Manager) Observe(onCreate func(*Pane), onChange func(id string), onOSC func(id string, num int, payload string), onExit func(id string, code int)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if onCreate != nil {
		m.onCreate = append(m.onCreate, onCreate)
	}
	if onChange != nil {
		m.onChange = append(m.onChange, onChange)
	}
	if onOSC != nil {
		m.onOSC = append(m.onOSC, onOSC)
	}
	if onExit != nil {
		m.onExit = append(m.onExit, onExit)
	}
}

// Create starts a pane. Options' callbacks are set by the Manager.
func (m *Manager) Create(o Options) (Info, error) {
	o.ID = newID()
	return m.create(o)
}

func (m *Manager) create(o Options) (Info, error) {
	id := o.ID
	m.mu.Lock()
	if o.Position == 0 {
		m.nextPos++
		o.Position = m.nextPos
	} else if o.Position > m.nextPos {
		m.nextPos = o.Position
	}
	onChange, onOSC, onExit, onCreate, specs, launch := m.onChange, m.onOSC, m.onExit, m.onCreate, m.specs, m.launch
	filter := m.envFilter
	m.mu.Unlock()
	o = filterEnv(filter, o)
	o = m.withBranch(o)
	if launch != nil {
		argv := o.Argv
		if len(o.RunArgv) > 0 {
			argv = o.RunArgv
		}
		env, args := launch(id, argv, o.Env)
		if len(env) > 0 {
			if o.Env == nil {
				o.Env = os.Environ()
			}
			o.Env = append(append([]string(nil), o.Env...), env...)
		}
		o.ExtraArgs = append(o.ExtraArgs, args...)
	}
	viewed := m.views.of(id)
	o.OnOutput = func(seq uint64, b []byte) {
		if viewed.Load() > 0 {
			m.emit.Emit(EventOutput, OutputEvent{ID: id, Seq: seq, Data: b})
		}
	}
	drawn := new(atomic.Int64) // unix ns of the last screen change (branch panes' counts)
	o.OnChange = func() {
		drawn.Store(time.Now().UnixNano())
		for _, f := range onChange {
			f(id)
		}
	}
	o.OnOSC = func(num int, payload string) {
		for _, f := range onOSC {
			f(id, num, payload)
		}
	}
	o.OnExit = func(code int) {
		m.emit.Emit(EventExit, ExitEvent{ID: id, Code: code})
		for _, f := range onExit {
			f(id, code)
		}
		m.emit.Emit(EventPanes, nil)
	}
	p, err := Start(o)
	if err != nil {
		m.branches.ports.Release(id)
		return Info{}, err
	}
	p.drawn = drawn
	m.mu.Lock()
	m.pan[id] = p
	m.mu.Unlock()
	if specs != nil {
		m.save(p)
	}
	for _, f := range onCreate {
		f(p)
	}
	if o.Branch != nil {
		p.refreshDiff()
		m.watchDiffs()
	}
	m.emit.Emit(EventPanes, nil)
	return infoOf(p), nil
}

func newID() string {
	b := make([]byte, 6)
	rand.Read(b)
	return "p-" + hex.EncodeToString(b)
}

// Get returns a pane by id.
func (m *Manager) Get(id string) (*Pane, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	p, ok := m.pan[id]
	if !ok {
		return nil, fmt.Errorf("pane %q: no such pane (it may have been closed)", id)
	}
	return p, nil
}

// List returns every pane in rail order: as saved, new ones last.
func (m *Manager) List() []Info {
	m.mu.Lock()
	ps := make([]*Pane, 0, len(m.pan))
	for _, p := range m.pan {
		ps = append(ps, p)
	}
	m.mu.Unlock()
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].position != ps[j].position {
			return ps[i].position < ps[j].position
		}
		return ps[i].started.Before(ps[j].started)
	})
	out := make([]Info, len(ps))
	for i, p := range ps {
		out[i] = infoOf(p)
	}
	return out
}

func infoOf(p *Pane) Info {
	pg, fg := p.Foreground()
	s := p.Screen()
	info := Info{
		ID: p.ID(), Pid: p.Pid(), Dir: p.Dir(), Folder: ShortName(p.Dir()), Argv: p.Argv(), Foreground: fg,
		ShellInFront: pg != 0 && pg == p.proc.Pid(),
		Title:        s.Title, Cols: s.Cols, Rows: s.Rows, Exited: p.Exited(), ExitCode: p.ExitCode(),
		Paused: p.Paused(), CanPause: p.CanPause() && !p.Exited(),
		StartedAt: p.Started().UnixMilli(), Command: p.ForegroundCommand(), Session: p.Session().ID, Resumed: p.opts.Resumed,
		Name: p.Name(), Branch: p.opts.Branch,
	}
	if p.opts.Branch != nil {
		d := p.BranchDiff()
		info.Added, info.Removed = d.Added, d.Removed
	}
	return info
}

// Close ends a pane's whole process session and forgets it.
func (m *Manager) Close(id string) error {
	m.mu.Lock()
	p, ok := m.pan[id]
	delete(m.pan, id)
	specs, onClose := m.specs, m.onClose
	m.mu.Unlock()
	m.views.forget(id)
	if !ok {
		return fmt.Errorf("closing pane %q: no such pane", id)
	}
	if specs != nil {
		m.storeMu.Lock()
		specs.DeletePane(id)
		if st, ok := specs.(ScrollbackStore); ok {
			st.DeleteScrollback(id) // a closed pane's output is not kept
		}
		m.storeMu.Unlock()
	}
	m.scroll.forget(id)
	err := p.Close()
	m.branches.ports.Release(id) // the worktree stays: its branch holds the work
	for _, f := range onClose {
		f(id)
	}
	m.emit.Emit(EventPanes, nil)
	return err
}

// CloseAll ends every pane in parallel (app quit), after writing their
// output when the person keeps it.
func (m *Manager) CloseAll() {
	m.cancelRestore()
	if err := m.SaveScrollbacks(); err != nil {
		fmt.Fprintln(os.Stderr, "osfoundry:", err)
	}
	m.stopSaving()
	m.mu.Lock()
	ps := m.pan
	m.pan = map[string]*Pane{}
	m.mu.Unlock()
	m.views.reset()
	var wg sync.WaitGroup
	for _, p := range ps {
		wg.Add(1)
		go func() { defer wg.Done(); p.Close() }()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
	}
}
