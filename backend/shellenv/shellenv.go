// Package shellenv gives an app started from a desktop entry, Finder or
// Explorer the PATH its user has in a terminal. Such an app gets a bare
// PATH (/usr/bin:/bin:/usr/sbin:/sbin on macOS), so `claude`, `codex` and
// `node` installed through npm, nvm, volta, asdf or Homebrew are not found,
// or are found and then fail with `env: node: No such file or directory`.
//
// On Unix it starts the user's login shell once, interactive and in its own
// session with no terminal, and reads `env -0` between two random markers;
// on Windows it reads the user and system PATH from the registry. The PATH
// found goes first, the process's own entries after it, and a short
// allowlist of variables CLIs need is copied when absent.
//
// The window never changes its own environment with the result: GTK and
// WebKit threads read the C environment without a lock, and setenv beside
// them can crash the start or hide DISPLAY from it. The merged environment
// is handed to children instead (Environ, LookPath); only the command line,
// which runs no such threads, applies it to itself (Ensure).
//
// It never copies anything outside that allowlist: API keys and tokens the
// rc files export stay in the shell. It never waits on the shell longer
// than the timeout, and never leaves the shell's processes running.
package shellenv

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// DefaultTimeout bounds reading the login shell. A zsh with oh-my-zsh and
// nvm takes 0.3–1 s; five seconds leaves room for a slow disk at login.
const DefaultTimeout = 5 * time.Second

// EnvFromTerminal, set to "1" by a launcher that was itself started from a
// terminal (the osfoundry command line opening the window), says the PATH
// the window got is already the one the user's terminal has: the window
// then reads no login shell.
const EnvFromTerminal = "OSF_FROM_TERMINAL"

// ErrTimeout is returned (wrapped) when the login shell did not print its
// environment within the timeout; its whole process group was killed and
// nothing was merged.
var ErrTimeout = errors.New("timed out")

// Options configure Resolve. Zero values mean this machine and this process.
type Options struct {
	// Shell is the shell to start; "" is the user's login shell (the passwd
	// entry, then $SHELL, then /bin/sh). Ignored on Windows.
	Shell string
	// Home is HOME for the shell; "" keeps the process's.
	Home string
	// Timeout bounds the whole read; 0 is DefaultTimeout.
	Timeout time.Duration
}

// Result says what a resolution did, for the log line and the External AI
// tab. Only names of variables are reported, never values (other than PATH).
type Result struct {
	// Shell is the login shell read ("registry" on Windows); "" when
	// nothing was read.
	Shell string `json:"shell"`
	// Reason is why the environment was read: "no terminal" (started from
	// a desktop entry, Finder or Explorer) or "PATH unusable"; "" when the
	// process's own environment was used as it was.
	Reason string `json:"reason"`
	// Pending: the read is still running.
	Pending bool `json:"pending"`
	// OK: the environment was read and merged.
	OK bool `json:"ok"`
	// TimedOut: the shell was killed at the timeout (Error says so too).
	TimedOut bool `json:"timedOut"`
	// Error says what went wrong when OK is false and Reason is set (the
	// returned error's words without the "reading … (shell)" prefix).
	Error    string        `json:"error,omitempty"`
	Duration time.Duration `json:"duration"` // ns
	// Path is the PATH in use now.
	Path string `json:"path"`
	// Added are the PATH entries the shell added; Dropped the entries
	// left out because they are not existing folders.
	Added   []string `json:"added"`
	Dropped []string `json:"dropped"`
	// Set names the allowlisted variables copied from the shell.
	Set []string `json:"set"`

	set [][2]string // the merge: name, value, in order
}

// Environ is the process's environment with the merge over it.
func (r Result) Environ() []string {
	env := withoutWindowOnly(os.Environ())
	for _, kv := range r.set {
		env = setIn(env, kv[0], kv[1])
	}
	return env
}

// apply makes the merge the process's own environment. Only for a process
// with no other thread reading the C environment (see the package note).
func (r Result) apply() {
	for _, kv := range r.set {
		os.Setenv(kv[0], kv[1])
	}
}

// Resolve reads the login shell's environment (the registry on Windows)
// and merges it over the process's own into the Result (Environ): PATH
// gets the shell's entries first, then the current ones not already
// present; allowlisted variables absent here are copied. It leaves the
// process's environment as it is. On error nothing is merged and the
// Result says what happened. Call it once per process (Start/Wait do that).
func Resolve(ctx context.Context, o Options) (Result, error) {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	start := time.Now()
	login, shell, err := readLogin(ctx, o)
	res := Result{Shell: shell, Duration: time.Since(start)}
	if err != nil {
		// The Result names the shell already: keep the error's own words.
		detail := err
		if inner := errors.Unwrap(err); inner != nil {
			detail = inner
		}
		res.Error, res.TimedOut = detail.Error(), errors.Is(err, ErrTimeout)
		res.Path = os.Getenv("PATH")
		return res, err
	}
	p := plan(os.LookupEnv, login)
	res.OK, res.Added, res.Dropped, res.Set, res.set = true, p.added, p.dropped, p.names(), p.set
	res.Path = GetIn(res.Environ(), "PATH")
	return res, nil
}

// Usable reports whether path can find anything: it is set and at least
// one entry is an existing folder.
func Usable(path string) bool {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			return true
		}
	}
	return false
}

// Reason says why a process should read the login shell's environment:
// "PATH unusable", "no terminal" (only when the caller asks about the
// terminal: the window does, the command line does not), or "".
func Reason(checkTerminal, stdinTerminal bool, path string) string {
	switch {
	case !Usable(path):
		return "PATH unusable"
	case checkTerminal && !stdinTerminal:
		return "no terminal"
	}
	return ""
}

// The process has one environment, so it is read at most once: the window
// starts the read early and every place that finds or starts a CLI waits.
var proc struct {
	once    sync.Once
	mu      sync.Mutex
	started bool
	done    chan struct{}
	res     Result
}

// Start begins Resolve in the background, once per process; reason is
// reported in the Result. Later calls do nothing.
func Start(o Options, reason string) {
	proc.once.Do(func() {
		proc.mu.Lock()
		proc.started, proc.done = true, make(chan struct{})
		proc.res = Result{Reason: reason, Pending: true}
		proc.mu.Unlock()
		go func() {
			res, _ := Resolve(context.Background(), o)
			res.Reason = reason
			proc.mu.Lock()
			proc.res = res
			proc.mu.Unlock()
			close(proc.done)
		}()
	})
}

// Wait blocks until the read Start began has ended and returns its Result.
// Without Start it returns at once (the process's environment is used as
// it is). Every place that discovers or starts a CLI, worker or pane calls
// it before reading PATH.
func Wait() Result {
	proc.mu.Lock()
	started, done := proc.started, proc.done
	proc.mu.Unlock()
	if started {
		<-done
	}
	return Status()
}

// Environ is the environment CLIs, workers and panes start with: the
// process's own with the login shell's merged over it, once the read Start
// began has ended (the process's own when nothing was read).
func Environ() []string { return Wait().Environ() }

// LookPath finds name in Environ's PATH.
func LookPath(name string) (string, error) { return LookPathIn(name, Environ()) }

// Status returns the Result so far without waiting; Path is the PATH
// children get now.
func Status() Result {
	proc.mu.Lock()
	r := proc.res
	proc.mu.Unlock()
	r.Path = GetIn(r.Environ(), "PATH")
	if r.Added == nil {
		r.Added = []string{}
	}
	if r.Dropped == nil {
		r.Dropped = []string{}
	}
	if r.Set == nil {
		r.Set = []string{}
	}
	return r
}

// Ensure reads the login shell's environment now, waits for it and makes
// it the process's own, when the process's PATH is unusable (`env -i
// HOME=… osfoundry verify claude`). A process started with a usable PATH
// pays nothing: no shell is started. For the command line only: it is
// built without cgo and starts no thread that reads the C environment.
func Ensure(o Options) Result {
	if r := Reason(false, false, os.Getenv("PATH")); r != "" {
		Start(o, r)
	}
	Wait().apply()
	return Status()
}
