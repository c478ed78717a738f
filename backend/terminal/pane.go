package terminal

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// Options describe a pane to start.
type Options struct {
	ID   string   // set by the Manager; empty for a standalone pane
	Dir  string   // working folder; must exist
	Argv []string // program and arguments; empty means the user's shell
	Env  []string // full environment; nil means the app's own
	// ExtraArgs are appended to Argv for this run only: they are neither
	// shown (Argv, Info) nor remembered across restarts (per-run hooks).
	ExtraArgs []string
	// RunArgv, when set, runs instead of Argv, which stays what is shown
	// and remembered: a restore resuming an agent's conversation runs
	// `claude --resume <id>` for a pane the user started as `claude`.
	RunArgv []string
	// Resumed says why RunArgv was chosen (shown with the pane).
	Resumed string
	// Notice, when set, is the pane's first line, dim, written before the
	// program's output: what the app changed for it (SetEnvFilter).
	Notice string
	// Restored is the pane's output saved at the last quit: views draw it
	// above everything the program prints now (scrollback.go). The
	// emulator never sees it.
	Restored []byte
	// Position is the pane's place in the rail (set by the Manager).
	Position int
	// Session is the agent conversation the pane resumes, if any.
	Session Session
	// Name is what the person called the pane ("" until renamed).
	Name string
	// Branch, when set, is the pane's own branch and worktree (Dir is in
	// it); the Manager gives it a port offset.
	Branch *Branch
	// Before, when set, runs first with the program's argv appended and
	// is expected to exec it (`osfoundry pane setup --` runs a worktree's
	// set-up command in the pane): not shown, not remembered.
	Before []string
	Cols   int
	Rows   int
	// Tap, when set, receives every raw byte read from the PTY (recorders).
	Tap io.Writer
	// OnOutput receives batched UI bytes (at most one call per frame),
	// numbered from 1. data is only valid during the call: its buffer
	// takes the next batch (copy what must be kept).
	OnOutput func(seq uint64, data []byte)
	// OnOSC receives every OSC the program sends (titles, status reports).
	OnOSC func(num int, payload string)
	// OnChange is called after output changed the emulated screen.
	OnChange func()
	// OnExit is called once when the program ended, with its exit code.
	OnExit func(code int)
}

// ptyProc is a program on a pseudo-terminal: creack/pty on Unix, ConPTY
// on Windows.
type ptyProc interface {
	io.ReadWriter
	Resize(cols, rows int) error
	Pid() int
	Wait() (int, error)
	Foreground() (pgrp int, name string)
	Kill(grace time.Duration)
	Close() error
	// CanPause, Pause and Resume freeze and continue every process of the
	// pane (SIGSTOP/SIGCONT on Unix, suspended job processes on Windows).
	CanPause() bool
	Pause() error
	Resume() error
}

// Errors callers branch on.
var (
	// ErrFolderMissing: the pane's folder does not exist; nothing started.
	ErrFolderMissing = errors.New("folder does not exist")
	// ErrClosed: the pane was closed; input and resizes are refused.
	ErrClosed = errors.New("pane is closed")
	// ErrExited: the pane's program has ended; there is nothing to pause.
	ErrExited = errors.New("the pane's program has ended")
	// ErrPauseUnsupported: this pane's processes cannot be frozen here.
	ErrPauseUnsupported = errors.New("pausing is not available for this pane")
)

// Pane is one program in a real pseudo-terminal, with its emulated screen
// and a bounded buffer of recent output for re-attaching a view.
type Pane struct {
	opts  Options
	proc  ptyProc
	emu   *Emulator
	batch *batcher

	// position orders the rail; session is what the agent last reported.
	position int
	session  Session
	name     string        // the person's name for the pane (under mu)
	diff     BranchStat    // the branch's counts, for a branch pane (under mu)
	diffAt   time.Time     // when diff was read (under mu)
	drawn    *atomic.Int64 // unix ns of the last screen change; nil outside a Manager

	mu       sync.Mutex
	restored []byte // Options.Restored until the recent-output ring wraps
	closed   bool
	exited   bool
	exitCode int
	started  time.Time
	paused   bool
	// pauseMu orders Pause, Resume and Close: a pause half done when the
	// pane closes must not leave stopped processes behind.
	pauseMu sync.Mutex

	writeMu sync.Mutex
	// input puts numbered chunks of each view's typing back in order;
	// replySeq numbers the emulator's replies, written the same way.
	input    inputOrder
	replySeq atomic.Uint64
	done     chan struct{}

	// lastIn and lastOut are unix ns of the last keystroke and of the last
	// output that was not the echo of one (see LastOutput).
	lastIn, lastOut atomic.Int64
	cmdMu           sync.Mutex
	cmdPgrp         int
	cmdLine         string
	cmdAt           time.Time
}

// Start runs a program in a new pane.
func Start(o Options) (*Pane, error) {
	if o.Cols <= 0 || o.Rows <= 0 {
		o.Cols, o.Rows = 120, 32
	}
	o.Cols, o.Rows = clampSize(o.Cols, o.Rows)
	if o.Dir == "" {
		o.Dir, _ = os.UserHomeDir()
	}
	if st, err := os.Stat(o.Dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("starting pane in %s: %w — choose an existing folder", o.Dir, ErrFolderMissing)
	}
	if len(o.Argv) == 0 {
		o.Argv = []string{DefaultShell()}
	}
	if o.Env == nil {
		o.Env = os.Environ()
	}
	o.Env = withTerm(o.Env)
	if len(o.RunArgv) > 0 && o.RunArgv[0] != o.Argv[0] {
		o.RunArgv = nil // a resume always runs the pane's own program
	}
	if _, err := lookPath(o.Argv[0], o.Env); err != nil {
		return nil, fmt.Errorf("starting pane: %q was not found — check the command or install it: %w", o.Argv[0], err)
	}
	run := o
	if len(o.RunArgv) > 0 {
		run.Argv = o.RunArgv
	}
	if len(o.ExtraArgs) > 0 {
		run.Argv = append(append([]string(nil), run.Argv...), o.ExtraArgs...)
	}
	if len(o.Before) > 0 {
		run.Argv = append(append([]string(nil), o.Before...), run.Argv...)
	}
	proc, err := startPTY(run)
	if err != nil {
		return nil, fmt.Errorf("starting pane: %w", err)
	}
	p := &Pane{opts: o, proc: proc, emu: NewEmulator(o.Cols, o.Rows), done: make(chan struct{}), started: time.Now(),
		position: o.Position, session: o.Session, name: o.Name, restored: SanitizeScrollback(o.Restored)}
	// A reply is written from its own goroutine (the read loop must not
	// block on a program that does not read its input), numbered so that
	// two replies keep their order.
	p.emu.OnReply(func(b []byte) {
		seq := p.replySeq.Add(1)
		go p.Input(replyStream, seq, b)
	})
	p.emu.OnOSC(o.OnOSC)
	p.batch = newBatcher(frameInterval, func(seq uint64, b []byte) {
		if o.OnOutput != nil {
			o.OnOutput(seq, b)
		}
	})
	if o.Notice != "" {
		// The program has started but nothing of its output was read yet:
		// the notice comes first on the screen and in every view.
		p.batch.add(func() []byte { return p.emu.WriteUI(noticeLine(o.Notice), nil) })
	}
	go p.readLoop()
	return p, nil
}

// frameInterval bounds UI events to under 60 per second per pane.
const frameInterval = 17 * time.Millisecond

// recentBytes bounds the output kept for re-attaching a view.
const recentBytes = 256 << 10

func (p *Pane) readLoop() {
	buf := make([]byte, 64<<10)
	for {
		n, err := p.proc.Read(buf)
		if n > 0 {
			if in, now := p.lastIn.Load(), time.Now().UnixNano(); in != 0 && now-in > int64(echoWindow) {
				p.lastOut.Store(now)
			}
			if p.opts.Tap != nil {
				p.opts.Tap.Write(buf[:n])
			}
			p.batch.addTo(n, func(dst []byte) []byte { return p.emu.WriteUI(buf[:n], dst) })
			if p.opts.OnChange != nil {
				p.opts.OnChange()
			}
		}
		if err != nil {
			break
		}
	}
	code, err := p.proc.Wait()
	if err != nil {
		code = -1
	}
	p.batch.stop()
	p.mu.Lock()
	p.exited, p.exitCode, p.paused = true, code, false
	p.mu.Unlock()
	close(p.done)
	if p.opts.OnExit != nil {
		p.opts.OnExit(code)
	}
}

// ID is the pane's id (empty for standalone panes).
func (p *Pane) ID() string { return p.opts.ID }

// Dir is the folder the pane started in.
func (p *Pane) Dir() string { return p.opts.Dir }

// Argv is the command the pane runs.
func (p *Pane) Argv() []string { return append([]string(nil), p.opts.Argv...) }

// Pid is the pane's session leader.
func (p *Pane) Pid() int { return p.proc.Pid() }

// Session is the conversation the pane's agent last reported.
func (p *Pane) Session() Session {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.session
}

// Started is when the pane started.
func (p *Pane) Started() time.Time { return p.started }

// Emulator exposes the emulated screen.
func (p *Pane) Emulator() *Emulator { return p.emu }

// replyStream is the input stream of the emulator's replies (views name
// theirs with random ids, so no view takes it).
const replyStream = "emulator-replies"

// Input writes chunk seq (from 1) of an input stream — one pane view's
// typing — after every earlier chunk of that stream, whatever order the
// calls arrive in (see inputOrder). An empty stream writes at once.
func (p *Pane) Input(stream string, seq uint64, b []byte) error {
	if stream == "" || seq == 0 {
		_, err := p.Write(b)
		return err
	}
	done := p.input.turn(stream, seq)
	defer done()
	_, err := p.Write(b)
	return err
}

// Write types b into the pane as one piece: it is written whole under the
// pane's write lock, so another writer's bytes (a person's typing, an
// agent's runtime_send) come before or after it, never inside it.
func (p *Pane) Write(b []byte) (int, error) {
	if p.isClosed() {
		return 0, ErrClosed
	}
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	p.lastIn.Store(time.Now().UnixNano())
	n, err := p.proc.Write(b)
	if err != nil {
		return n, fmt.Errorf("writing to pane: %w", err)
	}
	return n, nil
}

// Resize changes the PTY and emulator size (clamped to 2×1 … 1000×500).
func (p *Pane) Resize(cols, rows int) error {
	if p.isClosed() {
		return ErrClosed
	}
	cols, rows = clampSize(cols, rows)
	p.emu.Resize(cols, rows)
	return p.proc.Resize(cols, rows)
}

// Screen is a snapshot of the visible screen.
type Screen struct {
	Lines []string
	Title string
	Cols  int
	Rows  int
	Alt   bool
}

// Screen returns the visible screen now.
func (p *Pane) Screen() Screen {
	c, r := p.emu.Size()
	return Screen{Lines: p.emu.Lines(), Title: p.emu.Title(), Cols: c, Rows: r, Alt: p.emu.AltScreen()}
}

// Snapshot returns what a freshly attached view must draw to show exactly
// what is on the pane now — recent output (for scrollback), then a repaint
// of the current screen — and the number of the last batch it includes.
func (p *Pane) Snapshot() (seq uint64, data []byte) {
	seq, _, data = p.attachment()
	return seq, data
}

// attachment is Snapshot plus, while the recent output still follows on
// from it, the output restored from the last session, which a view draws
// first and scrolls off (scrollback.go).
func (p *Pane) attachment() (seq uint64, restored, data []byte) {
	seq, data = p.batch.snapshot(func(recent []byte, wrapped bool) []byte {
		restored = p.restoredBefore(wrapped)
		return append(recent, p.emu.Repaint()...)
	})
	return seq, restored, data
}

// Drawn is when the pane's output last changed its screen (zero: not
// since it started, or a pane outside a Manager).
func (p *Pane) Drawn() time.Time {
	if p.drawn == nil || p.drawn.Load() == 0 {
		return time.Time{}
	}
	return time.Unix(0, p.drawn.Load())
}

// Foreground names the program holding the terminal now (tcgetpgrp).
func (p *Pane) Foreground() (pgrp int, name string) {
	if p.Exited() {
		return 0, ""
	}
	return p.proc.Foreground()
}

// echoWindow: output this soon after a keystroke is taken for its echo
// (the shell redrawing its line), not for a program at work.
const echoWindow = 150 * time.Millisecond

// LastOutput is when the pane last printed something other than the echo
// of what was typed into it (zero: never). What a program prints before
// anything was typed — a shell's greeting and first prompt — does not
// count: nobody asked it to work yet.
func (p *Pane) LastOutput() time.Time {
	if ns := p.lastOut.Load(); ns != 0 {
		return time.Unix(0, ns)
	}
	return time.Time{}
}

// cmdTTL bounds how long a foreground command line is reused (reading it
// costs a process start where there is no /proc).
const cmdTTL = 2 * time.Second

// ForegroundCommand is the command line of the program holding the
// terminal, e.g. "npm run dev" ("" once the pane exited).
func (p *Pane) ForegroundCommand() string {
	pg, name := p.Foreground()
	if pg == 0 {
		return name
	}
	p.cmdMu.Lock()
	defer p.cmdMu.Unlock()
	if pg == p.cmdPgrp && time.Since(p.cmdAt) < cmdTTL {
		return p.cmdLine
	}
	cmd := processCommand(pg)
	if cmd == "" {
		cmd = name
	}
	p.cmdPgrp, p.cmdLine, p.cmdAt = pg, cmd, time.Now()
	return cmd
}

// ShellInFront reports whether the pane's own first program (usually the
// shell) holds the terminal again — an agent started from it has ended.
func (p *Pane) ShellInFront() bool {
	pg, _ := p.Foreground()
	return pg != 0 && pg == p.proc.Pid()
}

// Exited reports whether the program ended, and its exit code.
func (p *Pane) Exited() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.exited
}

// ExitCode is valid once Done is closed.
func (p *Pane) ExitCode() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.exitCode
}

// Done is closed when the program ended and its output was drained.
func (p *Pane) Done() <-chan struct{} { return p.done }

func (p *Pane) isClosed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}

// Close ends the pane's whole session (no orphans) and releases the PTY.
func (p *Pane) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	p.mu.Unlock()
	// Kill continues stopped processes after the hangup, so a paused pane
	// ends like any other.
	p.pauseMu.Lock()
	p.proc.Kill(500 * time.Millisecond)
	p.pauseMu.Unlock()
	select {
	case <-p.done:
	case <-time.After(2 * time.Second):
	}
	return p.proc.Close()
}

// DefaultShell is the user's login shell.
func DefaultShell() string {
	if s := os.Getenv("SHELL"); s != "" {
		return s
	}
	return defaultShell
}

// ShortName is the folder's last element, as the rail shows it.
func ShortName(dir string) string {
	if b := filepath.Base(filepath.Clean(dir)); b != "." && b != string(filepath.Separator) {
		return b
	}
	return dir
}

func withTerm(env []string) []string {
	out := make([]string, 0, len(env)+2)
	for _, kv := range env {
		if len(kv) >= 5 && (kv[:5] == "TERM=" || (len(kv) >= 10 && kv[:10] == "COLORTERM=")) {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "TERM=xterm-256color", "COLORTERM=truecolor")
}
