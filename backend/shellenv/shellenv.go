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
// Two environments come out of one read. Environ, for workers and the
// CLIs the app runs headless, copies nothing outside that allowlist: API
// keys and tokens the rc files export stay out of them. TerminalEnviron,
// for the panes, is what the person's terminal has: every variable the
// login shell exported (an env_key a Codex provider reads, proxies, cloud
// credentials), since a pane is the person's own terminal. It never waits
// on the shell longer than the timeout, and never leaves the shell's
// processes running: not at the timeout, and not when the app exits
// before the read ended (Stop).
package shellenv

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

	set   [][2]string       // the merge: name, value, in order
	login map[string]string // everything the login shell exported
}

// Environ is the process's environment with the merge over it.
func (r Result) Environ() []string {
	env := withoutWindowOnly(os.Environ())
	for _, kv := range r.set {
		env = setIn(env, kv[0], kv[1])
	}
	return env
}

// TerminalEnviron is Environ with every other variable the login shell
// exported set as the shell has it: the environment the person's terminal
// would have, for panes. A shell pane reads the rc files itself; a pane
// started with a command (an agent, a restore, Open in Terminal) has only
// this.
func (r Result) TerminalEnviron() []string {
	env := r.Environ()
	names := make([]string, 0, len(r.login))
	for name := range r.login {
		names = append(names, name)
	}
	slices.Sort(names) // a stable order: the same pane gets the same environment
	for _, name := range names {
		v := r.login[name]
		if shellOwn(name) || strings.ContainsRune(v, 0) {
			continue
		}
		env = setIn(env, name, v)
	}
	return withoutWindowOnly(env)
}

// shellOwn names what the reading shell set for itself, not the person:
// PATH is merged already, the rest describe that one shell process.
func shellOwn(name string) bool {
	switch name {
	case "PATH", "PWD", "OLDPWD", "SHLVL", "_", "TERM", "COLORTERM", "COLUMNS", "LINES", EnvFromTerminal:
		return true
	}
	return name == ""
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
	res.login = login
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

// reader is one background read of the login shell: the process has one
// environment, so the window asks for it at start (proc, held until its
// first frame) and every place that finds or starts a CLI waits for it.
type reader struct {
	once    sync.Once
	mu      sync.Mutex
	started bool   // Start or Hold was called
	run     func() // starts a held read; nil once it runs
	began   chan struct{}
	done    chan struct{}
	cancel  context.CancelFunc
	res     Result
}

var proc reader

// Start begins Resolve in the background, once per process; reason is
// reported in the Result. Later calls do nothing.
func Start(o Options, reason string) { proc.hold(o, reason); proc.begin() }

// Hold is Start held back: the read begins at the first Wait (anything
// that finds or starts a CLI, worker or pane). The window holds it until
// its first frame is on screen: a login shell running pyenv or nvm init
// takes 0.4–0.8 s of CPU, and on two cores beside GTK and WebKit starting
// it made the first frame 0.3–0.5 s later.
func Hold(o Options, reason string) { proc.hold(o, reason) }

// Began is closed once a read began, and at once when none was asked for.
func Began() <-chan struct{} { return proc.beganCh() }

func (rd *reader) hold(o Options, reason string) {
	rd.once.Do(func() {
		ctx, cancel := context.WithCancel(context.Background())
		rd.mu.Lock()
		defer rd.mu.Unlock()
		rd.started, rd.began, rd.done, rd.cancel = true, make(chan struct{}), make(chan struct{}), cancel
		rd.res = Result{Reason: reason, Pending: true}
		rd.run = func() {
			close(rd.began)
			go func() {
				res, _ := Resolve(ctx, o)
				res.Reason = reason
				rd.mu.Lock()
				rd.res = res
				rd.mu.Unlock()
				close(rd.done)
			}()
		}
	})
}

func (rd *reader) begin() {
	rd.mu.Lock()
	run := rd.run
	rd.run = nil
	rd.mu.Unlock()
	if run != nil {
		run()
	}
}

var closed = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func (rd *reader) beganCh() <-chan struct{} {
	rd.mu.Lock()
	defer rd.mu.Unlock()
	if !rd.started {
		return closed
	}
	return rd.began
}

// Stop ends a read Start began that is still running, killing the shell's
// whole process group (a slow `pyenv init` or a `sleep` an rc started),
// and waits until it is gone. The window calls it when it exits, however
// early: the shell runs in its own session, so nothing else would end it.
// A read that had ended is left as it was, one held and never begun is
// not started; later Waits return at once.
func Stop() { proc.stop() }

func (rd *reader) stop() {
	rd.mu.Lock()
	started, done, cancel, held := rd.started, rd.done, rd.cancel, rd.run != nil
	rd.run = nil
	if held {
		rd.res = Result{Reason: rd.res.Reason, Error: "the app ended before the login shell was read"}
		close(rd.began)
		close(done)
	}
	rd.mu.Unlock()
	if !started {
		return
	}
	cancel()
	<-done // Resolve returns once the group is killed (runShell bounds it)
}

// Wait begins a held read and blocks until the read has ended, then
// returns its Result. Without Start or Hold it returns at once (the
// process's environment is used as it is). Every place that discovers or
// starts a CLI, worker or pane calls it before reading PATH.
func Wait() Result { return proc.wait() }

func (rd *reader) wait() Result {
	rd.begin()
	rd.mu.Lock()
	started, done := rd.started, rd.done
	rd.mu.Unlock()
	if started {
		<-done
	}
	return rd.status()
}

// Environ is the environment CLIs and workers start with: the process's
// own with the login shell's PATH and allowlist merged over it, once the
// read Start began has ended (the process's own when nothing was read).
func Environ() []string { return Wait().Environ() }

// TerminalEnviron is the environment panes start with: Environ with every
// variable the login shell exported (see Result.TerminalEnviron).
func TerminalEnviron() []string { return Wait().TerminalEnviron() }

// LookPath finds name in Environ's PATH.
func LookPath(name string) (string, error) { return LookPathIn(name, Environ()) }

// Status returns the Result so far without waiting; Path is the PATH
// children get now.
func Status() Result { return proc.status() }

func (rd *reader) status() Result {
	rd.mu.Lock()
	r := rd.res
	rd.mu.Unlock()
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
