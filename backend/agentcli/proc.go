package agentcli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Wall-clock limits of the spec.
const (
	AutonomousLimit = 1800 * time.Second
	VerifyLimit     = 300 * time.Second
)

// maxLine bounds one stdout line. Claude's stream-json lines carry tool
// results (a whole file read), so they can be large; a line beyond this is
// cut and reported as a raw line instead of growing without bound.
const maxLine = 8 << 20

// stderrKeep is how much of stderr is kept for the error message.
const stderrKeep = 8 << 10

// procSpec is one child process.
type procSpec struct {
	Argv   []string
	Env    []string
	Dir    string
	Limit  time.Duration
	OnLine func(line []byte) // called for every stdout line, in order
	// Control, when set, can freeze the running group; the limit counts
	// only the time the run is not paused.
	Control *Control
}

// procResult is how a child ended.
type procResult struct {
	ExitCode int
	Stderr   string // the tail
	TimedOut bool
	Canceled bool
	// StartErr is set when the program could not be started at all.
	StartErr error
	// WaitErr is the raw Wait error (signals, I/O).
	WaitErr error
}

// runProc runs the child in its own process group under the limit and
// kills the whole group when the limit passes, the context is cancelled,
// or the child exits (so nothing it spawned outlives it).
func runProc(ctx context.Context, s procSpec) procResult {
	if s.Limit <= 0 {
		s.Limit = AutonomousLimit
	}
	// The limit is a timer rather than a context deadline so Pause can
	// hold it.
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	limit := time.AfterFunc(s.Limit, func() { cancel(errLimit) })
	defer limit.Stop()
	cmd := exec.CommandContext(ctx, s.Argv[0], s.Argv[1:]...)
	cmd.Dir = s.Dir
	cmd.Env = s.Env
	setGroup(cmd)
	// Bounds the wait for output pipes held open by a grandchild after the
	// child itself exited or was killed.
	cmd.WaitDelay = 2 * time.Second
	lw := &lineWriter{on: s.OnLine}
	cmd.Stdout = lw
	st := &tailBuffer{keep: stderrKeep}
	cmd.Stderr = st
	var r procResult
	if err := cmd.Start(); err != nil {
		r.ExitCode = -1
		// A cancel or limit that came first is reported as such, not as a
		// broken binary (exec refuses to start with a done context).
		if !r.ended(ctx) {
			r.StartErr = err
		}
		return r
	}
	if s.Control != nil {
		s.Control.started(cmd.Process.Pid, limit, s.Limit)
	}
	err := cmd.Wait()
	if s.Control != nil {
		s.Control.finished()
	}
	killGroup(cmd)
	lw.flush()
	r.WaitErr = err
	r.Stderr = st.String()
	if cmd.ProcessState != nil {
		r.ExitCode = cmd.ProcessState.ExitCode()
	}
	r.ended(ctx)
	return r
}

// ended records whether the context ended (limit or cancel).
func (r *procResult) ended(ctx context.Context) bool {
	if ctx.Err() != nil {
		if errors.Is(context.Cause(ctx), errLimit) {
			r.TimedOut = true
		} else {
			r.Canceled = true
		}
		return true
	}
	return false
}

var errLimit = errors.New("wall-clock limit reached")

// lineWriter splits stdout into lines as it arrives.
type lineWriter struct {
	on   func([]byte)
	buf  []byte
	skip bool // inside a line that was already cut
}

func (w *lineWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.add(p)
			break
		}
		w.add(p[:i])
		w.emit()
		w.skip = false
		p = p[i+1:]
	}
	return n, nil
}

func (w *lineWriter) add(p []byte) {
	if w.skip {
		return
	}
	if len(w.buf)+len(p) > maxLine {
		w.buf = append(w.buf, p[:maxLine-len(w.buf)]...)
		cut := fmt.Appendf(nil, "(a %d MB line was cut: %.200s…)", maxLine>>20, w.buf)
		w.buf = w.buf[:0]
		if w.on != nil {
			w.on(cut)
		}
		w.skip = true
		return
	}
	w.buf = append(w.buf, p...)
}

func (w *lineWriter) emit() {
	line := bytes.TrimRight(w.buf, "\r")
	if len(line) > 0 && w.on != nil {
		w.on(line)
	}
	w.buf = w.buf[:0]
}

func (w *lineWriter) flush() {
	if len(w.buf) > 0 {
		w.emit()
	}
}

// tailBuffer keeps the last keep bytes written.
type tailBuffer struct {
	mu   sync.Mutex
	keep int
	b    []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > 2*t.keep {
		t.b = append(t.b[:0], t.b[len(t.b)-t.keep:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.b
	if len(b) > t.keep {
		b = b[len(b)-t.keep:]
	}
	return strings.TrimSpace(stripANSI(string(b)))
}

// stripANSI drops terminal escape sequences from an error tail.
func stripANSI(s string) string {
	if !strings.Contains(s, "\x1b") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			i = j
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
