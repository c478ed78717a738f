package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/mattn/go-isatty"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/inventory"
	"github.com/osfoundry/desktop/backend/shellenv"
)

// startShellEnv begins reading the login shell's environment when the
// window was started from a desktop entry, Finder or Explorer (no
// terminal) or with an unusable PATH, and logs the outcome and where the
// agent CLIs were found. The read runs beside the window's start; every
// place that finds or starts a CLI, worker or pane waits for it:
// agentcli.SystemEnv (the workers read it at every use), resolvedEnviron
// (new and restored panes) and shellReadyRunner (External agents' help and
// resume look-ups).
func startShellEnv() {
	fd := os.Stdin.Fd()
	term := isatty.IsTerminal(fd) || isatty.IsCygwinTerminal(fd) || os.Getenv(shellenv.EnvFromTerminal) == "1"
	os.Unsetenv(shellenv.EnvFromTerminal) // not for the panes and workers
	if reason := shellenv.Reason(true, term, os.Getenv("PATH")); reason != "" {
		shellenv.Start(shellenv.Options{}, reason)
	}
	go logShellEnv(os.Stderr)
}

// resolvedEnviron is the environment new panes start with: the app's own
// with the login shell's merged over it, once that has arrived.
var resolvedEnviron = shellenv.Environ

// shellRunner is the External agents' exec runner: it looks CLIs up and
// runs them with the login shell's PATH, waiting for it.
var shellRunner = inventory.ExecRunner{Environ: shellenv.Environ}

// logShellEnv writes two lines to the app's log (stderr; the log file when
// started without a terminal): how PATH was found, and where each agent
// CLI is. A packaging check greps for "osfoundry: agent CLIs:".
func logShellEnv(w io.Writer) {
	r := shellenv.Wait()
	fmt.Fprintln(w, "osfoundry:", shellEnvLine(r))
	var parts []string
	env := agentcli.SystemEnv()
	for _, a := range []agentcli.Agent{agentcli.Claude, agentcli.Codex} {
		in := agentcli.Discover(a, env)
		if !in.Installed {
			parts = append(parts, string(a)+" not found")
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %s (%s)", a, installedVersion(in.Path), in.Path))
	}
	fmt.Fprintln(w, "osfoundry: agent CLIs:", strings.Join(parts, ", "))
}

// shellEnvLine says how the app's PATH was found, e.g.
// "login shell /bin/bash: PATH resolved in 120 ms".
func shellEnvLine(r shellenv.Result) string {
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

var versionRe = regexp.MustCompile(`^\d+\.\d+\.\d+([-+.][0-9A-Za-z.-]+)?$`)

// installedVersion reads a CLI's version without running it (a start-up
// log line must not start node): the package.json of an npm install the
// binary links into, or a native install's versions/<version> file name.
// "found" when neither says.
func installedVersion(bin string) string {
	p, err := filepath.EvalSymlinks(bin)
	if err != nil {
		return "found"
	}
	if versionRe.MatchString(filepath.Base(p)) {
		return filepath.Base(p)
	}
	dir := filepath.Dir(p)
	for range 4 {
		if b, err := os.ReadFile(filepath.Join(dir, "package.json")); err == nil {
			var pkg struct{ Version string }
			if json.Unmarshal(b, &pkg) == nil && versionRe.MatchString(pkg.Version) {
				return pkg.Version
			}
		}
		dir = filepath.Dir(dir)
	}
	return "found"
}
