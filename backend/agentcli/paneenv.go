package agentcli

import (
	"path/filepath"
	"strings"
)

// paneClaudeScrub is what a pane the app starts as Claude Code loses: the
// API key alone switches an interactive Claude Code from the person's
// subscription to API billing. The rest of the workers' list (claudeScrub)
// stays: in a pane the person may have chosen Bedrock or a gateway on
// purpose, and Claude Code asks before using a token it did not log in with.
var paneClaudeScrub = []string{"ANTHROPIC_API_KEY"}

// PaneNotice is the dim first line of a Claude Code pane whose API key
// was removed.
const PaneNotice = "osFoundry removed ANTHROPIC_API_KEY from this pane so Claude Code uses your subscription"

// PaneEnv is the panes' environment filter (terminal.EnvFilter): a pane
// the app starts as Claude Code — New pane with `claude`, a restored pane,
// Open in Terminal from External agents — gets env without
// ANTHROPIC_API_KEY, and the notice saying so when one was set. Shells and
// every other program get env unchanged: a `claude` the person types in a
// shell pane is theirs to start as they like.
func PaneEnv(argv, env []string) ([]string, string) {
	if len(argv) == 0 || programName(argv[0]) != string(Claude) {
		return env, ""
	}
	out := make([]string, 0, len(env))
	removed := false
	for _, kv := range env {
		name, val, _ := strings.Cut(kv, "=")
		if isScrubbed(name, paneClaudeScrub) {
			removed = removed || val != ""
			continue
		}
		out = append(out, kv)
	}
	if !removed {
		return out, ""
	}
	return out, PaneNotice
}

// programName is argv0's file name without a Windows program extension.
func programName(argv0 string) string {
	name := filepath.Base(strings.ReplaceAll(argv0, `\`, "/"))
	for _, ext := range []string{".exe", ".cmd", ".bat"} {
		if n, ok := strings.CutSuffix(strings.ToLower(name), ext); ok {
			return n
		}
	}
	return name
}

func isScrubbed(name string, list []string) bool {
	for _, n := range list {
		if name == n {
			return true
		}
	}
	return false
}
