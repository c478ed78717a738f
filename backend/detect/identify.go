package detect

import (
	"path"
	"strings"
)

// Process is the PTY's foreground process group leader as the pane reads
// it (tcgetpgrp on the master, then the process's name and argv).
type Process struct {
	Name string   // short name (comm or script), e.g. "claude", "node", "codex", "bash"
	Argv []string // may be empty when it could not be read
	// Shell: the pane's own first program (its shell) holds the terminal
	// again, whatever its name. Gone: the pane's program exited.
	Shell, Gone bool
}

// commLen is the kernel's limit on a process's short name (TASK_COMM_LEN-1):
// "codex-x86_64-unknown-linux-musl" shows up as "codex-x86_64-un".
const commLen = 15

// runtimes host agents written in a scripting language: their argv, not
// their name, says which agent runs.
var runtimes = map[string]bool{
	"node": true, "nodejs": true, "bun": true, "deno": true, "npx": true,
	"python": true, "python3": true, "uv": true, "uvx": true,
}

var shells = map[string]bool{
	"sh": true, "bash": true, "zsh": true, "dash": true, "fish": true, "ksh": true,
	"mksh": true, "tcsh": true, "csh": true, "nu": true, "elvish": true, "xonsh": true,
	"pwsh": true, "powershell": true, "powershell.exe": true, "cmd.exe": true, "ash": true,
}

// IsShell reports whether a foreground process is an interactive shell, i.e.
// no agent (or its run ended) in that pane. Login shells are named "-bash".
func IsShell(name string) bool {
	return shells[strings.TrimPrefix(path.Base(name), "-")]
}

// isInteractiveShell is a shell waiting at its prompt, as opposed to a shell
// running a wrapper script (`bash run-claude.sh`), whose agent is then found
// from the screen.
func isInteractiveShell(p Process) bool {
	if !IsShell(p.Name) {
		return false
	}
	for _, a := range p.Argv[min(1, len(p.Argv)):] {
		if !strings.HasPrefix(a, "-") {
			return false
		}
	}
	return true
}

// IdentifyProcess names the agent running as p, or "".
func (r *Registry) IdentifyProcess(p Process) string {
	s := r.snap()
	name := strings.TrimPrefix(path.Base(p.Name), "-")
	if name == "" && len(p.Argv) > 0 {
		name = path.Base(p.Argv[0])
	}
	for _, agent := range s.order {
		rs := s.sets[agent]
		for _, pn := range rs.ProcessNames {
			if name == pn || (len(name) == commLen && strings.HasPrefix(pn, name)) {
				return agent
			}
		}
	}
	// Only look into argv when the process is a runtime (node cli.js …) or
	// argv[0] itself: `less notes/claude` must not count as Claude running.
	args := p.Argv
	if !runtimes[name] && len(args) > 1 {
		args = args[:1]
	}
	for _, agent := range s.order {
		rs := s.sets[agent]
		for _, a := range args {
			for _, re := range rs.Argv {
				if re.MatchString(a) {
					return agent
				}
			}
		}
	}
	return ""
}

// IdentifyScreen names the agent whose screen markers show on the visible
// screen (agents started through a wrapper script), or "".
func (r *Registry) IdentifyScreen(lines []string) string {
	text := ScreenText(lines)
	s := r.snap()
	for _, agent := range s.order {
		if s.sets[agent].MatchesMarkers(text) {
			return agent
		}
	}
	return ""
}
