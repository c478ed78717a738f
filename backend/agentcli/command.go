package agentcli

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Turn is one message of the conversation sent to a CLI.
type Turn struct {
	Role string `json:"role"` // "user" or "assistant"
	Text string `json:"text"`
}

// Transcript renders turns as "User: …" / "Assistant: …" blocks separated
// by blank lines: neither CLI takes a message list on its command line.
func Transcript(turns []Turn) string {
	var b strings.Builder
	for i, t := range turns {
		if i > 0 {
			b.WriteString("\n\n")
		}
		if t.Role == "assistant" {
			b.WriteString("Assistant: ")
		} else {
			b.WriteString("User: ")
		}
		b.WriteString(strings.TrimSpace(t.Text))
	}
	return b.String()
}

// MaxPromptBytes stays under Linux's 128 KiB limit for a single argv
// string (MAX_ARG_STRLEN); beyond it exec fails with a bare E2BIG. The
// pipeline compacts a chat before its prompt gets near it.
const MaxPromptBytes = 120 << 10

const maxPromptBytes = MaxPromptBytes

// ErrPromptTooLong is returned when the conversation does not fit in one
// command-line argument. The chat shows a Compact button beside it, which
// has the Compaction role summarise the earlier turns.
var ErrPromptTooLong = errors.New("the conversation is too long to pass to the CLI (over 120 KB): press Compact to have the earlier turns summarised, or start a new chat")

func checkPrompt(p string) error {
	if strings.ContainsRune(p, 0) {
		return errors.New("the task contains a NUL character, which cannot be passed to a program: remove it and try again")
	}
	if len(p) > maxPromptBytes {
		return ErrPromptTooLong
	}
	return nil
}

// ClaudeArgs are the inputs of one Claude Code invocation.
type ClaudeArgs struct {
	// Prompt is the conversation (see Transcript). It always starts with
	// "User:" or "Assistant:" when built from turns, so it can never be read
	// as a flag.
	Prompt       string
	SystemPrompt string // --append-system-prompt
	Folder       string // --add-dir
	Chat         bool   // --disallowedTools '*': the run can call nothing
	// PlanMode denies Claude Code's own tools that change things (the
	// app's are refused behind the bridge): the run reads and plans.
	PlanMode bool
	// BridgeURL and BridgeToken attach the per-run MCP bridge.
	BridgeURL   string
	BridgeToken string
	Resume      string // --resume <session id>
	Fork        bool   // --fork-session: continue Resume in a new session
	Model       string // --model, when the user picked one
	// NoSession keeps the run out of Claude Code's own history
	// (--no-session-persistence; only with --print): a sign-in check.
	NoSession bool
	// Extra flags appended last (advanced settings; the test harness).
	Extra []string
}

// mcpConfig is the --mcp-config JSON: one HTTP server with the run's token.
func mcpConfig(url, token string) string {
	cfg := map[string]any{"mcpServers": map[string]any{"osfoundry": map[string]any{
		"type":    "http",
		"url":     url,
		"headers": map[string]string{"Authorization": "Bearer " + token},
		"timeout": 120000,
	}}}
	b, _ := json.Marshal(cfg) // a map of strings and an int never fails
	return string(b)
}

// claudeWriteTools are Claude Code's own tools that change files or run
// commands, denied in plan mode.
var claudeWriteTools = []string{"Bash", "Edit", "Write", "MultiEdit", "NotebookEdit"}

// BuildClaude returns the argv of docs/reference.md §3's Claude Code run. --allowedTools
// is never passed: bypassPermissions ignores it; the bridge holds the
// allowlist. --strict-mcp-config is always passed so the user's own MCP
// servers never join a run.
func BuildClaude(bin string, a ClaudeArgs) ([]string, error) {
	if err := checkPrompt(a.Prompt); err != nil {
		return nil, err
	}
	if strings.HasPrefix(a.Prompt, "-") {
		return nil, errors.New("building the claude command: the prompt starts with '-' and would be read as a flag (build it with Transcript)")
	}
	argv := []string{bin, "-p", a.Prompt,
		"--output-format", "stream-json", "--verbose", "--include-partial-messages"}
	if a.Resume != "" {
		if err := checkID(a.Resume); err != nil {
			return nil, err
		}
		argv = append(argv, "--resume", a.Resume)
		if a.Fork {
			argv = append(argv, "--fork-session")
		}
	}
	if a.Model != "" {
		if err := CheckCLIModel(a.Model); err != nil {
			return nil, err
		}
		argv = append(argv, "--model", a.Model)
	}
	if a.NoSession {
		argv = append(argv, "--no-session-persistence")
	}
	if a.Chat {
		argv = append(argv, "--disallowedTools", "*")
	} else {
		argv = append(argv, "--permission-mode", "bypassPermissions")
		if a.PlanMode {
			argv = append(argv, "--disallowedTools", strings.Join(claudeWriteTools, ","))
		}
		if a.Folder != "" {
			argv = append(argv, "--add-dir", a.Folder)
		}
		if a.BridgeURL != "" {
			argv = append(argv, "--mcp-config", mcpConfig(a.BridgeURL, a.BridgeToken))
		}
	}
	argv = append(argv, "--strict-mcp-config")
	if a.SystemPrompt != "" {
		argv = append(argv, "--append-system-prompt", a.SystemPrompt)
	}
	return append(argv, a.Extra...), nil
}

// CodexArgs are the inputs of one `codex exec` invocation.
type CodexArgs struct {
	SystemPrompt string
	// Turns is the conversation; the prompt is the system prompt, a blank
	// line, then the transcript (Codex has no system-prompt flag).
	Turns []Turn
	// Prompt, when set, is sent as is instead (verify, resume).
	Prompt string
	Folder string // -C; empty omits it (verify)
	// Sandbox is "workspace-write" or "read-only"; ignored with a bridge.
	Sandbox string
	// BridgeURL and BridgeToken attach the bridge; the caller must have
	// isolated the run in a git worktree, because Codex only lets MCP calls
	// through with its own sandbox and approvals bypassed.
	BridgeURL   string
	BridgeToken string
	// IgnoreRules adds --ignore-rules (only when the binary lists it).
	IgnoreRules bool
	// Ephemeral adds --ephemeral (no session file in Codex's history: a
	// sign-in check), only when the binary lists it.
	Ephemeral bool
	Resume    string // `codex exec resume <id>`
	Fork      bool   // `codex exec fork <id>`: continue Resume in a new session
	Model     string // -m
	// Config are extra -c key=value overrides (advanced settings; the test
	// harness points the provider at the fake model this way, since
	// --ignore-user-config skips config.toml).
	Config []string
}

// CodexPrompt is "<system prompt>\n\nUser: <task>[…]".
func CodexPrompt(system string, turns []Turn) string {
	t := Transcript(turns)
	if strings.TrimSpace(system) == "" {
		return t
	}
	return strings.TrimSpace(system) + "\n\n" + t
}

// BuildCodex returns the argv of docs/reference.md §3's Codex run.
func BuildCodex(bin string, a CodexArgs) ([]string, error) {
	prompt := a.Prompt
	if prompt == "" {
		prompt = CodexPrompt(a.SystemPrompt, a.Turns)
	}
	if err := checkPrompt(prompt); err != nil {
		return nil, err
	}
	if strings.HasPrefix(prompt, "-") {
		return nil, errors.New("building the codex command: the prompt starts with '-' and would be read as a flag")
	}
	argv := []string{bin, "exec"}
	if a.Resume != "" {
		if err := checkID(a.Resume); err != nil {
			return nil, err
		}
		if a.Fork {
			argv = append(argv, "fork", a.Resume)
		} else {
			argv = append(argv, "resume", a.Resume)
		}
	}
	argv = append(argv, prompt, "--json", "--skip-git-repo-check", "--ignore-user-config")
	if a.IgnoreRules {
		argv = append(argv, "--ignore-rules")
	}
	if a.Ephemeral {
		argv = append(argv, "--ephemeral")
	}
	if a.Model != "" {
		if err := CheckCLIModel(a.Model); err != nil {
			return nil, err
		}
		argv = append(argv, "-m", a.Model)
	}
	for _, c := range a.Config {
		argv = append(argv, "-c", c)
	}
	// `codex exec resume` takes no -C or -s: it continues in the session's
	// own folder with its recorded sandbox.
	if a.Folder != "" && a.Resume == "" {
		argv = append(argv, "-C", a.Folder)
	}
	if a.BridgeURL != "" {
		argv = append(argv, "--dangerously-bypass-approvals-and-sandbox",
			"-c", "mcp_servers.osfoundry.url="+tomlString(a.BridgeURL),
			"-c", "mcp_servers.osfoundry.http_headers={Authorization="+tomlString("Bearer "+a.BridgeToken)+"}")
	} else {
		sb := a.Sandbox
		if sb == "" {
			sb = "workspace-write"
		}
		if sb != "workspace-write" && sb != "read-only" {
			return nil, fmt.Errorf("building the codex command: sandbox %q is not allowed (workspace-write or read-only)", sb)
		}
		if a.Resume != "" {
			// `codex exec resume` has no -s; the same setting as config.
			argv = append(argv, "-c", "sandbox_mode="+tomlString(sb))
		} else {
			argv = append(argv, "-s", sb)
		}
	}
	return append(argv, "-c", `approval_policy="never"`), nil
}

// tomlString quotes s as a TOML basic string (the value side of -c).
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// checkID accepts the session ids the CLIs write (UUIDs, thread names):
// session ids come from files on disk and are untrusted input.
func checkID(id string) error {
	if id == "" || len(id) > 200 || strings.HasPrefix(id, "-") {
		return fmt.Errorf("session id %q is not valid: pick the session again from External agents", id)
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return fmt.Errorf("session id %q has characters a session id never has: pick the session again from External agents", id)
		}
	}
	return nil
}
