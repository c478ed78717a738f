//go:build !windows

package terminal

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// waitFor polls cond until it holds or the deadline passes (a liveness
// bound for the test, not a speed assertion).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

func shellEnv() []string {
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.TempDir(), "PS1=$ ", "LANG=C.UTF-8"}
}

func TestPaneEchoAndScreen(t *testing.T) {
	var mu sync.Mutex
	var events int
	var ui []byte
	p, err := Start(Options{Dir: t.TempDir(), Argv: []string{"/bin/sh"}, Env: shellEnv(), Cols: 80, Rows: 24,
		OnOutput: func(_ uint64, b []byte) { mu.Lock(); events++; ui = append(ui, b...); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.Write([]byte("echo hello-$((6*7))\n"))
	waitFor(t, "echo output on the emulated screen", func() bool {
		for _, l := range p.Screen().Lines {
			if strings.HasSuffix(l, "hello-42") {
				return true
			}
		}
		return false
	})
	waitFor(t, "output batch delivered", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return strings.Contains(string(ui), "hello-42")
	})
	if err := p.Resize(1, 1); err != nil {
		t.Fatalf("resize 1x1: %v", err)
	}
	if s := p.Screen(); s.Cols != MinCols || s.Rows != MinRows {
		t.Fatalf("1x1 resize should clamp to %dx%d, got %dx%d", MinCols, MinRows, s.Cols, s.Rows)
	}
	if err := p.Resize(100, 30); err != nil {
		t.Fatal(err)
	}
	p.Write([]byte("stty size\n"))
	waitFor(t, "stty to see the new size", func() bool { return strings.Contains(p.emu.Text(), "30 100") })
}

func TestPaneForegroundAndShellInFront(t *testing.T) {
	p, err := Start(Options{Dir: t.TempDir(), Argv: []string{"/bin/sh"}, Env: shellEnv()})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	waitFor(t, "shell in front", p.ShellInFront)
	// /bin/sh without job control runs children in its own group; use an
	// interactive shell with job control so sleep gets the terminal.
	p.Write([]byte("set -m; sleep 30\n"))
	waitFor(t, "sleep in the foreground", func() bool { _, n := p.Foreground(); return n == "sleep" })
	if info := infoOf(p); p.ShellInFront() || info.ShellInFront || info.Command != "sleep 30" {
		t.Fatalf("sleep holds the terminal, yet shell in front %v, rail's %v with %q", p.ShellInFront(), info.ShellInFront, info.Command)
	}
	p.Write([]byte{3}) // Ctrl-C
	waitFor(t, "shell back in front", p.ShellInFront)
	if !infoOf(p).ShellInFront {
		t.Fatal("the rail's entry does not say the shell is back in front")
	}
}

func TestCloseEndsWholeSession(t *testing.T) {
	dir := t.TempDir()
	p, err := Start(Options{Dir: dir, Argv: []string{"/bin/sh"}, Env: shellEnv()})
	if err != nil {
		t.Fatal(err)
	}
	// A background job in its own process group, ignoring SIGHUP.
	p.Write([]byte("set -m; nohup sh -c 'echo $$ > bg.pid; exec sleep 300' >/dev/null 2>&1 &\n"))
	var bg int
	waitFor(t, "background job pid", func() bool {
		b, err := os.ReadFile(dir + "/bg.pid")
		bg, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		return err == nil && bg > 0
	})
	leader := p.Pid()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	for _, pid := range []int{leader, bg} {
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			if _, st, ok := procStat(pid); ok && st != "Z" {
				t.Fatalf("process %d survived closing the pane (state %s)", pid, st)
			}
		}
	}
	if _, err := p.Write([]byte("x")); !errors.Is(err, ErrClosed) {
		t.Fatalf("write after close: want ErrClosed, got %v", err)
	}
}

func TestStartErrors(t *testing.T) {
	_, err := Start(Options{Dir: "/does/not/exist", Argv: []string{"/bin/sh"}})
	if !errors.Is(err, ErrFolderMissing) {
		t.Fatalf("missing folder: want ErrFolderMissing, got %v", err)
	}
	_, err = Start(Options{Dir: t.TempDir(), Argv: []string{"no-such-command-xyz"}, Env: shellEnv()})
	if err == nil || !strings.Contains(err.Error(), "was not found") {
		t.Fatalf("missing command: want a not-found message, got %v", err)
	}
}

func TestChildExitsAtOnce(t *testing.T) {
	p, err := Start(Options{Dir: t.TempDir(), Argv: []string{"/bin/sh", "-c", "printf 'bye\\377\\376\\n'; exit 3"}, Env: shellEnv()})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("pane did not report the exit")
	}
	if p.ExitCode() != 3 {
		t.Fatalf("exit code: want 3, got %d", p.ExitCode())
	}
	if !strings.HasPrefix(p.Screen().Lines[0], "bye") {
		t.Fatalf("output before exit lost: %q", p.Screen().Lines[0])
	}
	p.Close()
}

func TestManagerEmitsBatches(t *testing.T) {
	rec := &recEmitter{}
	m := NewManager(rec)
	info, err := m.Create(Options{Dir: t.TempDir(), Argv: []string{"/bin/sh", "-c", "read go; i=0; while [ $i -lt 2000 ]; do echo line $i; i=$((i+1)); done; sleep 0.3"}, Env: shellEnv()})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := m.Get(info.ID)
	// A view attaches (output is sent only to panes a view shows), then
	// the 2000 lines are printed.
	a, err := m.Attach(info.ID)
	if err != nil {
		t.Fatal(err)
	}
	first := a.Data
	if _, err := p.Write([]byte("\n")); err != nil { // the lines start after the attach
		t.Fatal(err)
	}
	<-p.Done()
	outputs := rec.count(EventOutput)
	if outputs == 0 || outputs > 100 {
		t.Fatalf("2000 lines should arrive in a few frame batches, got %d output events", outputs)
	}
	if !strings.Contains(string(first)+string(rec.data()), "line 1999") {
		t.Fatal("last line missing from the batches")
	}
	m.CloseAll()
	if len(m.List()) != 0 {
		t.Fatal("CloseAll left panes")
	}
}

type recEmitter struct {
	mu  sync.Mutex
	evs []string
	out []byte
}

func (r *recEmitter) Emit(ev string, payload any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.evs = append(r.evs, ev)
	if o, ok := payload.(OutputEvent); ok {
		r.out = append(r.out, o.Data...)
	}
}

func (r *recEmitter) count(ev string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, e := range r.evs {
		if e == ev {
			n++
		}
	}
	return n
}

func (r *recEmitter) data() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]byte(nil), r.out...)
}

// Output counts as the pane's own activity, not the echo of typing nor a
// shell's start-up before anything was typed.
func TestLastOutputLeavesOutEchoAndStartup(t *testing.T) {
	p, err := Start(Options{Dir: t.TempDir(), Argv: []string{"/bin/sh"}, Env: append(os.Environ(), "PS1=$ "), Cols: 80, Rows: 24})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	time.Sleep(300 * time.Millisecond)
	if !p.LastOutput().IsZero() {
		t.Fatalf("the shell's first prompt counted as output at %v", p.LastOutput())
	}
	p.Write([]byte("x"))
	time.Sleep(300 * time.Millisecond)
	if !p.LastOutput().IsZero() {
		t.Fatal("the echo of a typed key counted as output")
	}
	p.Write([]byte("\x15sleep 0.4; echo done-$((6*7))\r"))
	waitFor(t, "the command's output", func() bool { return strings.Contains(strings.Join(p.Screen().Lines, "\n"), "done-42") })
	if p.LastOutput().IsZero() || time.Since(p.LastOutput()) > time.Second {
		t.Fatalf("the command's output was not counted (last output %v)", p.LastOutput())
	}
}
