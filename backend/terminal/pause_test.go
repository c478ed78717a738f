//go:build !windows

package terminal

import (
	"errors"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// counter prints a growing number 20 times a second: the screen changes
// as long as the program runs.
const counter = `i=0; while :; do i=$((i+1)); echo "n$i"; sleep 0.05; done`

// states reads /proc/<pid>/stat's state of every process of the session.
func states(t *testing.T, sid int) map[int]string {
	t.Helper()
	out := map[int]string{}
	for _, pid := range sessionMembers(sid) {
		if _, st, ok := procStat(pid); ok {
			out[pid] = st
		}
	}
	return out
}

func allStopped(m map[int]string) bool {
	for _, st := range m {
		if st != "T" {
			return false
		}
	}
	return len(m) > 0
}

// stillFor reports whether the screen stays the same for d.
func stillFor(p *Pane, d time.Duration) bool {
	before := p.emu.Text()
	time.Sleep(d)
	return p.emu.Text() == before
}

func TestPauseFreezesAndResumeContinues(t *testing.T) {
	rec := &recEmitter{}
	m := NewManager(rec)
	var mu sync.Mutex
	var seen []string
	m.OnPause(func(id string, paused bool) {
		mu.Lock()
		seen = append(seen, id+"="+strconv.FormatBool(paused))
		mu.Unlock()
	})
	info, err := m.Create(Options{Dir: t.TempDir(), Argv: []string{"/bin/sh", "-c", counter}, Env: shellEnv()})
	if err != nil {
		t.Fatal(err)
	}
	defer m.CloseAll()
	p, _ := m.Get(info.ID)
	if !info.CanPause || info.Paused {
		t.Fatalf("a fresh Unix pane: want canPause and not paused, got %+v", info)
	}
	waitFor(t, "the counter to run", func() bool { return strings.Contains(p.emu.Text(), "n3") })

	if err := m.Pause(info.ID); err != nil {
		t.Fatal(err)
	}
	if st := states(t, p.Pid()); !allStopped(st) {
		t.Fatalf("after Pause every process should be stopped (T), got %v", st)
	}
	time.Sleep(100 * time.Millisecond) // output already in the PTY is drained
	if !stillFor(p, 400*time.Millisecond) {
		t.Fatal("the screen kept changing while the pane was paused")
	}
	if in := m.List()[0]; !in.Paused {
		t.Fatalf("Info.Paused should be true while paused: %+v", in)
	}
	if err := m.Pause(info.ID); err != nil {
		t.Fatalf("pausing a paused pane should do nothing, got %v", err)
	}

	if err := m.Resume(info.ID); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the counter to run again", func() bool { return !stillFor(p, 200*time.Millisecond) })
	for pid, st := range states(t, p.Pid()) {
		if st == "T" {
			t.Fatalf("process %d still stopped after Resume", pid)
		}
	}
	if m.List()[0].Paused {
		t.Fatal("Info.Paused should be false after Resume")
	}
	mu.Lock()
	got := strings.Join(seen, ",")
	mu.Unlock()
	if want := info.ID + "=true," + info.ID + "=false"; got != want {
		t.Fatalf("OnPause calls: want %s (the repeated pause is silent), got %s", want, got)
	}
}

// A job-control shell must not notice its foreground job stopping: no
// "Stopped" line, the job keeps the terminal, and it runs on after Resume.
// A background job in its own process group is frozen too.
func TestPauseJobControlShell(t *testing.T) {
	for _, sh := range []string{"/bin/sh", "bash", "zsh"} {
		path, err := lookPath(sh, shellEnv())
		if err != nil {
			continue // not installed here
		}
		t.Run(filepath.Base(sh), func(t *testing.T) { testPauseJobControl(t, path) })
	}
}

func testPauseJobControl(t *testing.T, shell string) {
	dir := t.TempDir()
	p, err := Start(Options{Dir: dir, Argv: []string{shell}, Env: shellEnv(), Cols: 80, Rows: 24})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	waitFor(t, "shell in front", p.ShellInFront)
	// bg: a background job in its own process group; held: one the user
	// stopped before the pause, which Resume must leave stopped.
	p.Write([]byte("set -m; sleep 301 & echo $! > held.pid; kill -STOP $!; sleep 300 & echo $! > bg.pid; sh -c '" + counter + "'\n"))
	waitFor(t, "the counter in the foreground", func() bool {
		return !p.ShellInFront() && strings.Contains(p.emu.Text(), "n3")
	})
	b, _ := os.ReadFile(filepath.Join(dir, "bg.pid"))
	bg, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if bg == 0 {
		t.Fatal("background job pid missing")
	}
	fg, _ := p.Foreground()

	if err := p.Pause(); err != nil {
		t.Fatal(err)
	}
	st := states(t, p.Pid())
	if !allStopped(st) {
		t.Fatalf("want every process stopped, got %v", st)
	}
	for _, pid := range []int{p.Pid(), bg, fg} {
		if st[pid] != "T" {
			t.Fatalf("process %d (shell %d, background %d, foreground group %d) not stopped: %v", pid, p.Pid(), bg, fg, st)
		}
	}
	time.Sleep(300 * time.Millisecond)
	if err := p.Resume(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the counter to run again", func() bool { return !stillFor(p, 200*time.Millisecond) })
	b, _ = os.ReadFile(filepath.Join(dir, "held.pid"))
	held, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if _, st, _ := procStat(held); st != "T" {
		t.Fatalf("the job the user had stopped (%d) was continued by Resume: state %q", held, st)
	}
	for _, l := range p.Screen().Lines {
		if strings.Contains(strings.ToLower(l), "stopped") && !strings.Contains(l, "sleep 301") {
			t.Fatalf("the shell reported the paused job as stopped:\n%s", p.emu.Text())
		}
	}
	if p.ShellInFront() {
		t.Fatal("the shell took the terminal back from its job")
	}
}

// Closing a paused pane ends it like any other, through the hangup: a
// program trapping SIGHUP gets to run its handler (a stopped process would
// only hold the signal until the SIGKILL grace ran out).
func TestClosePausedPane(t *testing.T) {
	dir := t.TempDir()
	script := `trap 'echo hup > hup.txt; exit 0' HUP; ` + counter
	p, err := Start(Options{Dir: dir, Argv: []string{"/bin/sh", "-c", script}, Env: shellEnv()})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the counter to run", func() bool { return strings.Contains(p.emu.Text(), "n2") })
	if err := p.Pause(); err != nil {
		t.Fatal(err)
	}
	pids := sessionMembers(p.Pid())
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	for _, pid := range pids {
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			if _, st, ok := procStat(pid); ok && st != "Z" {
				t.Fatalf("process %d survived closing the paused pane (state %s)", pid, st)
			}
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "hup.txt")); err != nil || strings.TrimSpace(string(b)) != "hup" {
		t.Fatalf("the paused program never handled the hangup (hup.txt: %q, %v)", b, err)
	}
	if err := p.Pause(); !errors.Is(err, ErrClosed) {
		t.Fatalf("pausing a closed pane: want ErrClosed, got %v", err)
	}
}

func TestPauseEndedPane(t *testing.T) {
	m := NewManager(nil)
	info, err := m.Create(Options{Dir: t.TempDir(), Argv: []string{"/bin/sh", "-c", "exit 0"}, Env: shellEnv()})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := m.Get(info.ID)
	<-p.Done()
	for name, f := range map[string]func(string) error{"Pause": m.Pause, "Resume": m.Resume} {
		if err := f(info.ID); !errors.Is(err, ErrExited) {
			t.Fatalf("%s on an exited pane: want ErrExited, got %v", name, err)
		}
	}
	if in := m.List()[0]; in.CanPause || in.Paused {
		t.Fatalf("an exited pane cannot pause: %+v", in)
	}
	m.Close(info.ID)
	if err := m.Pause(info.ID); err == nil || !strings.Contains(err.Error(), "no such pane") {
		t.Fatalf("pausing a closed pane: want no such pane, got %v", err)
	}
}

// An app started with the terminal's signals ignored (nohup, a script's
// background job) still starts its panes' programs with the default
// action: a shell traps the hangup of closing its pane, Ctrl-C interrupts.
func TestPanesGetDefaultSignalsWhenTheAppIgnoresThem(t *testing.T) {
	signal.Ignore(syscall.SIGHUP, syscall.SIGINT)
	t.Cleanup(func() { signal.Reset(syscall.SIGHUP, syscall.SIGINT) })
	dir := t.TempDir()
	p, err := Start(Options{Dir: dir, Argv: []string{"/bin/sh", "-c", `trap 'echo hup > hup.txt; exit 0' HUP; ` + counter}, Env: shellEnv()})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the counter to run", func() bool { return strings.Contains(p.emu.Text(), "n2") })
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "hup.txt")); err != nil || strings.TrimSpace(string(b)) != "hup" {
		t.Fatalf("the pane's shell could not trap the hangup (hup.txt: %q, %v)", b, err)
	}
}
