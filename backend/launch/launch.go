// Package launch ties the two programs of an install together: the
// headless command line `osfoundry` (CGO-free, on PATH, called by the pane
// hooks) and the window app `osfoundry-desktop` beside it. The command line
// opens the window; the window writes hooks that call the command line.
package launch

import (
	"os"
	"path/filepath"
	"runtime"
)

// Names of the two programs, without the .exe Windows adds.
const (
	CLIName    = "osfoundry"
	WindowName = "osfoundry-desktop"
)

// ExitShown is the window app's exit code after it showed its own message
// box about a failed start: the launcher must not show a second one.
const ExitShown = 3

func exe(name string) string {
	if runtime.GOOS == "windows" {
		return name + ".exe"
	}
	return name
}

// self is this program's path with symlinks resolved (/usr/bin/osfoundry
// links into /usr/lib/osfoundry/), so its siblings are found.
func self() (string, error) {
	p, err := os.Executable()
	if err != nil {
		return "", err
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	return p, nil
}

// siblings lists where the other program sits relative to dir: beside it
// (Linux packages, Windows installs, build/bin) or, in a macOS bundle,
// between Contents/MacOS and Contents/Resources.
func siblings(dir, name string) []string {
	return []string{
		filepath.Join(dir, exe(name)),
		filepath.Join(dir, "..", "MacOS", name),
		filepath.Join(dir, "..", "Resources", name),
	}
}

func firstFile(paths []string) string {
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		if runtime.GOOS != "windows" && st.Mode().Perm()&0o111 == 0 {
			continue
		}
		return filepath.Clean(p)
	}
	return ""
}

// HookCommand is the program the window writes into agent hooks: the
// command line beside it (no GTK or WebKit to load on every tool call), or
// this program itself when it runs from a folder without one; the window
// app accepts the same subcommands.
func HookCommand() string {
	me, err := self()
	if err != nil {
		return ""
	}
	if p := firstFile(siblings(filepath.Dir(me), CLIName)); p != "" && p != me {
		return p
	}
	return me
}
