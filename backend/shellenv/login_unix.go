//go:build !windows

package shellenv

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// readLogin starts the login shell and returns the environment it printed.
func readLogin(ctx context.Context, o Options) (map[string]string, string, error) {
	shell := o.Shell
	if shell == "" {
		shell = UserShell()
	}
	env, err := runShell(ctx, shell, o.Home, o.Timeout)
	if err != nil {
		return nil, shell, fmt.Errorf("reading your login shell's environment (%s): %w", shell, err)
	}
	return env, shell, nil
}

// UserShell is the user's login shell: the passwd entry of the current
// uid (os/user does not expose it), then $SHELL, then /bin/sh.
func UserShell() string {
	if s := passwdShell("/etc/passwd", os.Getuid()); s != "" {
		return s
	}
	if s := os.Getenv("SHELL"); filepath.IsAbs(s) {
		return s
	}
	return "/bin/sh"
}

// passwdShell reads the shell field of uid's line in a passwd file. On
// macOS the file lists only system accounts (users live in Directory
// Services), so $SHELL, which launchd sets from the account, comes next.
func passwdShell(file string, uid int) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	id := strconv.Itoa(uid)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), ":")
		if len(fields) >= 7 && fields[2] == id {
			if s := strings.TrimSpace(fields[6]); filepath.IsAbs(s) && isExec(s) {
				return s
			}
			return ""
		}
	}
	return ""
}

func isExec(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

// script prints the marker, the environment NUL-separated, the marker.
// bash login shells read ~/.bash_profile or ~/.profile but not ~/.bashrc,
// which a Linux terminal does read: source it too (a PATH set only there is
// common), its stdout out of the way; its stderr is kept for the error
// message. An rc that ends with a failing command is fine: the markers
// decide, not the exit status.
// When the login file bash reads already sources ~/.bashrc (Debian's and
// Ubuntu's default ~/.profile does), it is not sourced twice: a pyenv or
// nvm set-up there costs a few hundred ms each time.
func script(shell, marker, home string) string {
	body := fmt.Sprintf("printf '%%s' '%s'; command env -0 2>/dev/null || command env; printf '%%s' '%s'", marker, marker)
	switch filepath.Base(shell) {
	case "bash":
		if profileSourcesBashrc(home) {
			return body
		}
		return `[ -r "$HOME/.bashrc" ] && . "$HOME/.bashrc" </dev/null >/dev/null; ` + body
	case "fish":
		return fmt.Sprintf("printf '%%s' '%s'; command env -0; printf '%%s' '%s'", marker, marker)
	}
	return body
}

// profileSourcesBashrc reports whether the file a bash login shell reads
// in home (the first of ~/.bash_profile, ~/.bash_login, ~/.profile) names
// .bashrc on a line that is not a comment.
func profileSourcesBashrc(home string) bool {
	for _, name := range []string{".bash_profile", ".bash_login", ".profile"} {
		b, err := os.ReadFile(filepath.Join(home, name))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if line = strings.TrimSpace(line); !strings.HasPrefix(line, "#") && strings.Contains(line, ".bashrc") {
				return true
			}
		}
		return false
	}
	return false
}

// args are the flags for an interactive login shell; csh-family shells
// take -l only alone, so they start as plain interactive shells (they read
// ~/.cshrc either way).
func args(shell, script string) []string {
	switch filepath.Base(shell) {
	case "csh", "tcsh":
		return []string{"-i", "-c", script}
	}
	return []string{"-i", "-l", "-c", script}
}

// runShell starts shell as an interactive login shell in its own session
// (so it can never take a terminal), stdin from /dev/null, and returns the
// environment printed between the markers. Its stdout and stderr are pipes
// this function owns: a background child an rc started may keep them open
// forever, so reading stops when the markers are in or the shell has
// exited, never at EOF alone. The whole process group is ended at the end
// (and at the timeout), so nothing the rc started is left behind.
func runShell(ctx context.Context, shell, home string, timeout time.Duration) (map[string]string, error) {
	var rb [12]byte
	rand.Read(rb[:]) //nolint:errcheck // never fails on supported platforms
	marker := "_OSF_ENV_" + hex.EncodeToString(rb[:]) + "_"

	cmd := exec.Command(shell)
	cmd.Env = withoutWindowOnly(os.Environ()) // the window's JSC_ settings are not the person's
	if home != "" {
		cmd.Env = append(cmd.Env, "HOME="+home)
	} else {
		home, _ = os.UserHomeDir()
	}
	cmd.Args = append(cmd.Args, args(shell, script(shell, marker, home))...)
	cmd.Dir = home
	if st, err := os.Stat(cmd.Dir); err != nil || !st.IsDir() {
		cmd.Dir = "/"
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", shell, err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("starting %s: %w", shell, err)
	}
	cmd.Stdout, cmd.Stderr = outW, errW // files: no copying goroutines for Wait to block on
	err = cmd.Start()
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("starting %s: %w", shell, err)
	}
	pgid := cmd.Process.Pid

	out := &markerBuf{marker: marker, got: make(chan struct{})}
	stderr := &capBuf{max: maxStderr}
	var readers sync.WaitGroup
	readers.Add(2)
	go func() { defer readers.Done(); io.Copy(out, outR) }()    //nolint:errcheck // ends when the pipe closes
	go func() { defer readers.Done(); io.Copy(stderr, errR) }() //nolint:errcheck
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var waitErr error
	var hasExited, timedOut, canceled bool
	select {
	case <-out.got:
	case waitErr = <-exited:
		hasExited = true
		// What the shell wrote before exiting is still in the pipe: read
		// it, without waiting for an EOF a background child may hold off.
		select {
		case <-out.got:
		case <-time.After(100 * time.Millisecond):
		}
	case <-timer.C:
		timedOut = true
	case <-ctx.Done():
		canceled = true
	}
	if !hasExited && !timedOut && !canceled {
		// The markers are in; let the shell finish its logout files briefly.
		select {
		case waitErr = <-exited:
			hasExited = true
		case <-time.After(200 * time.Millisecond):
		}
	}
	endGroup(pgid)
	if !hasExited {
		select {
		case waitErr = <-exited:
		case <-time.After(time.Second): // unkillable (stuck in the kernel): leave it
		}
	}
	outR.Close()
	errR.Close()
	readers.Wait()

	if data, ok := out.between(); ok {
		return parseEnv(data), nil
	}
	detail := clean(stderr.bytes(), 300)
	switch {
	case timedOut:
		return nil, fmt.Errorf("%w: it printed no environment within %s and was stopped%s — look for a command in your shell's startup files that waits (for input, the network or a lock)",
			ErrTimeout, timeout.Round(time.Millisecond), withDetail("", detail))
	case canceled:
		return nil, ctx.Err()
	}
	var ee *exec.ExitError
	if errors.As(waitErr, &ee) {
		how := "exited with code " + strconv.Itoa(ee.ExitCode())
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			how = "was killed by " + ws.Signal().String()
		}
		return nil, errors.New(withDetail(how+" before printing its environment", detail))
	}
	return nil, errors.New(withDetail("exited before printing its environment", detail))
}

func withDetail(msg, detail string) string {
	if detail == "" {
		return msg
	}
	return msg + ": " + detail
}

// hangupGrace is how long the shell's processes get to run their exit
// traps after SIGHUP before SIGKILL.
const hangupGrace = 500 * time.Millisecond

// endGroup ends process group pgid as closing a terminal does: SIGHUP
// first, so exit traps run, then SIGKILL for what is left after
// hangupGrace. An rc stopped in the middle of taking a lock (pyenv's
// rehash takes one in ~/.pyenv/shims and drops it in an EXIT trap) would
// otherwise leave it behind, and every later shell of the person waits
// for it (a minute, for pyenv).
func endGroup(pgid int) {
	if syscall.Kill(-pgid, syscall.SIGHUP) != nil {
		return // ESRCH: everything had ended
	}
	syscall.Kill(-pgid, syscall.SIGCONT) //nolint:errcheck // a stopped process handles the hangup once continued
	for end := time.Now().Add(hangupGrace); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if syscall.Kill(-pgid, 0) != nil {
			return
		}
	}
	syscall.Kill(-pgid, syscall.SIGKILL) //nolint:errcheck // ESRCH: it ended meanwhile
}
