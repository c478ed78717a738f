package shellenv

import (
	"fmt"
	"os"
	"strings"

	"github.com/mattn/go-isatty"
)

// StartForWindow holds a read of the login shell's environment when the
// window was started from a desktop entry, Finder or Explorer (no
// terminal, and no launcher that had one said EnvFromTerminal) or with an
// unusable PATH. The read begins once the window's first frame is on
// screen (the page restores the saved panes then, which waits for it) or
// when something needs it sooner; everything that finds or starts a CLI,
// worker or pane waits for it (Environ, TerminalEnviron, LookPath). It
// also takes EnvFromTerminal out of the environment the panes and workers
// inherit, so call it before the window toolkit starts a thread (see the
// package note). The returned stop ends a read still running (and what
// the rc files started): call it however the window exits.
func StartForWindow() (stop func()) {
	fd := os.Stdin.Fd()
	term := isatty.IsTerminal(fd) || isatty.IsCygwinTerminal(fd) || os.Getenv(EnvFromTerminal) == "1"
	os.Unsetenv(EnvFromTerminal) // not for the panes and workers
	if reason := Reason(true, term, os.Getenv("PATH")); reason != "" {
		Hold(Options{}, reason)
	}
	return Stop
}

// Summary says how the app's PATH was found, for the app's log, e.g.
// "login shell /bin/bash: PATH resolved in 120 ms (no terminal)".
func (r Result) Summary() string {
	ms := r.Duration.Milliseconds()
	src := "login shell " + r.Shell
	if r.Shell == "registry" {
		src = "user and system PATH from the registry"
	}
	switch {
	case r.Reason == "":
		return "PATH as started (from a terminal): " + r.Path
	case !r.OK:
		return fmt.Sprintf("%s: could not read the environment after %d ms (%s): %s — using PATH=%s", src, ms, r.Reason, r.Error, r.Path)
	}
	line := fmt.Sprintf("%s: PATH resolved in %d ms (%s)", src, ms, r.Reason)
	if len(r.Added) > 0 {
		line += "; added " + strings.Join(r.Added, string(os.PathListSeparator))
	}
	if len(r.Dropped) > 0 {
		line += "; dropped (not folders) " + strings.Join(r.Dropped, string(os.PathListSeparator))
	}
	return line
}
