package panehook

import (
	"bytes"
	"encoding/json"
	"strings"
)

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }

// ClaudeSettings returns the JSON for `claude --settings` that adds this
// app's hooks for one run (the user's own hooks keep running). exe is the
// app binary; Claude runs hook commands through a shell, so the path is
// single-quoted. Failures of the helper never disturb the agent.
func ClaudeSettings(exe string, permissionRequest bool) string {
	q := shellQuote(exe)
	cmd := func(args string) []any {
		return []any{map[string]any{"hooks": []any{map[string]any{
			"type": "command", "command": q + " pane " + args + " >/dev/null 2>&1 || true",
		}}}}
	}
	withMatcher := func(args string) []any {
		h := cmd(args)
		h[0].(map[string]any)["matcher"] = "*"
		return h
	}
	// Every way a conversation starts in the pane, named: some releases
	// run a SessionStart hook without a matcher only at startup.
	sessionStart := cmd("session")
	sessionStart[0].(map[string]any)["matcher"] = "startup|resume|clear|compact"
	hooks := map[string]any{
		// Which conversation runs in the pane (at start, on /clear and on
		// /resume): what a restore of the pane resumes.
		"SessionStart":     sessionStart,
		"UserPromptSubmit": cmd("report working"),
		"PreToolUse":       withMatcher("report working"),
		"Notification":     cmd("notify"),
		"Stop":             cmd("report done"),
	}
	if permissionRequest {
		hooks["PermissionRequest"] = withMatcher("notify")
	}
	b, _ := json.Marshal(map[string]any{"hooks": hooks})
	return string(b)
}

// shellQuote quotes s for a POSIX shell: '…' with embedded quotes closed,
// escaped and reopened.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
