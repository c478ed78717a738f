//go:build !windows

package terminal

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// unixPTY is a child process on a creack/pty pseudo-terminal. The child is
// a session leader (setsid), so its session id equals its pid and every
// process it starts — jobs in their own process groups included — can be
// found and ended with the pane.
type unixPTY struct {
	f   *os.File
	cmd *exec.Cmd
	// stopped holds the processes Pause stopped, for Resume to continue
	// (the Pane serialises the two).
	stopped map[int]bool
}

func startPTY(o Options) (ptyProc, error) {
	// Looked up in the pane's PATH, not the app's (the window keeps the
	// login shell's PATH out of its own environment: backend/shellenv).
	path, err := lookPath(o.Argv[0], o.Env)
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", o.Argv[0], err)
	}
	defaultSignalsForPanes()
	cmd := exec.Command(path, o.Argv[1:]...)
	cmd.Args[0] = o.Argv[0] // argv[0] as typed, as a shell passes it
	cmd.Dir = o.Dir
	cmd.Env = o.Env
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: uint16(o.Cols), Rows: uint16(o.Rows)})
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", o.Argv[0], err)
	}
	return &unixPTY{f: f, cmd: cmd}, nil
}

func (p *unixPTY) Read(b []byte) (int, error)  { return p.f.Read(b) }
func (p *unixPTY) Write(b []byte) (int, error) { return p.f.Write(b) }
func (p *unixPTY) Pid() int                    { return p.cmd.Process.Pid }

func (p *unixPTY) Resize(cols, rows int) error {
	if err := pty.Setsize(p.f, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}); err != nil {
		return fmt.Errorf("resizing pty: %w", err)
	}
	return nil
}

func (p *unixPTY) Wait() (int, error) {
	err := p.cmd.Wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal()), nil
		}
		return ee.ExitCode(), nil
	}
	if err != nil {
		return -1, err
	}
	return 0, nil
}

// Foreground returns the process group holding the terminal (tcgetpgrp on
// the master) and its program name.
func (p *unixPTY) Foreground() (int, string) {
	pgrp, err := unix.IoctlGetInt(int(p.f.Fd()), unix.TIOCGPGRP)
	if err != nil || pgrp <= 0 {
		return 0, ""
	}
	return pgrp, processName(pgrp)
}

// Kill ends the whole session: SIGHUP first (what closing a terminal
// sends), then SIGKILL to anything still alive after the grace period.
// A paused pane's processes are stopped and would only hold the SIGHUP
// pending, so SIGCONT follows it: they wake up to handle the hangup.
func (p *unixPTY) Kill(grace time.Duration) {
	sid := p.Pid()
	signalSession(sid, syscall.SIGHUP)
	signalSession(sid, syscall.SIGCONT)
	deadline := time.Now().Add(grace)
	for time.Now().Before(deadline) && len(sessionMembers(sid)) > 0 {
		time.Sleep(10 * time.Millisecond)
	}
	signalSession(sid, syscall.SIGKILL)
	// SIGKILL is asynchronous: wait briefly so callers (and tests) see the
	// session gone when Kill returns.
	for i := 0; i < 100 && len(sessionMembers(sid)) > 0; i++ {
		time.Sleep(5 * time.Millisecond)
	}
}

func (p *unixPTY) Close() error { return p.f.Close() }

func signalSession(sid int, sig syscall.Signal) {
	_ = syscall.Kill(-sid, sig) // the leader's own process group
	for _, pid := range sessionMembers(sid) {
		_ = syscall.Kill(pid, sig)
	}
}

// sessionMembers lists live processes whose session id is sid. On systems
// without /proc it returns only the leader when alive.
func sessionMembers(sid int) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		if syscall.Kill(sid, 0) == nil {
			return []int{sid}
		}
		return nil
	}
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if s, state, ok := procStat(pid); ok && s == sid && state != "Z" {
			out = append(out, pid)
		}
	}
	return out
}

// procStat reads the session id and state of pid from /proc/<pid>/stat.
func procStat(pid int) (sid int, state string, ok bool) {
	f := procStatFields(pid)
	if len(f) < 4 {
		return 0, "", false
	}
	sid, err := strconv.Atoi(f[3])
	return sid, f[0], err == nil
}

// procStatFields splits /proc/<pid>/stat after the command name: state,
// ppid, pgrp, session, … (nil when unreadable).
func procStatFields(pid int) []string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')') // comm may contain spaces and parens
	if i < 0 {
		return nil
	}
	return strings.Fields(s[i+1:])
}

// processName names the program of pid: the basename of argv[0] from
// /proc/<pid>/cmdline (node-based CLIs show as their script, e.g. claude),
// falling back to comm, then to ps on systems without /proc.
func processName(pid int) string {
	if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline"); err == nil && len(b) > 0 {
		args := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
		name := filepath.Base(args[0])
		if (name == "node" || name == "bun") && len(args) > 1 {
			for _, a := range args[1:] {
				if !strings.HasPrefix(a, "-") {
					return scriptName(a)
				}
			}
		}
		return name
	}
	if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm"); err == nil {
		return strings.TrimSpace(string(b))
	}
	out, err := exec.Command("ps", "-o", "comm=", "-p", strconv.Itoa(pid)).Output()
	if err != nil {
		return ""
	}
	return filepath.Base(strings.TrimSpace(string(out)))
}

// scriptName names a node script by its file, or by its package folder
// when the file is a generic entry point: …/@anthropic-ai/claude-code/cli.js
// → claude-code, …/@openai/codex/bin/codex.js → codex. Which name means
// which agent is the detection rules' business, not this package's.
func scriptName(path string) string {
	dir, base := filepath.Split(path)
	name := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(base, ".js"), ".mjs"), ".cjs")
	switch name {
	case "cli", "index", "main":
		parts := strings.Split(filepath.Clean(dir), string(filepath.Separator))
		for i := len(parts) - 1; i >= 0; i-- {
			if p := parts[i]; p != "bin" && p != "dist" && p != "build" && p != "" {
				return p
			}
		}
	}
	return name
}

// processCommand is pid's command line for the rail: the program as
// processName names it, then its arguments (a node CLI's script path left
// out), quoted where they hold spaces. Without /proc it asks ps.
func processCommand(pid int) string {
	var args []string
	if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline"); err == nil && len(b) > 0 {
		args = strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
	} else if out, err := exec.Command("ps", "-o", "args=", "-p", strconv.Itoa(pid)).Output(); err == nil {
		args = strings.Fields(strings.TrimSpace(string(out)))
	}
	if len(args) == 0 {
		return ""
	}
	rest := args[1:]
	if n := filepath.Base(args[0]); n == "node" || n == "bun" {
		for i, a := range rest {
			if !strings.HasPrefix(a, "-") {
				rest = rest[i+1:]
				break
			}
		}
	}
	name := processName(pid)
	if name == "" {
		name = filepath.Base(args[0])
	}
	return commandLine(strings.TrimPrefix(name, "-"), rest)
}
