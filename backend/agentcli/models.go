// Package agentcli runs the Claude Code and Codex CLIs as headless workers
// of the app's pipeline, on the user's own subscription: it finds the
// binaries, builds their argv exactly as the spec says (never a shell
// string), removes API keys from the child's environment, decodes their JSON
// streams into progress lines, and runs them under a wall-clock limit that
// kills the whole process group, with a per-run MCP bridge for the app's
// tools and, when asked, a git worktree per run.
package agentcli

import (
	"errors"
	"fmt"
	"strings"
)

// Agent names a supported CLI.
type Agent string

// The CLIs this package drives.
const (
	Claude Agent = "claude"
	Codex  Agent = "codex"
)

// Title is the product name shown in the External AI tab.
func (a Agent) Title() string {
	switch a {
	case Claude:
		return "Claude Code"
	case Codex:
		return "Codex"
	}
	return string(a)
}

// Model ids of the External AI (subscription) group.
const (
	ModelClaudeChat  = "cli:claude"       // chat mode: --disallowedTools '*', text-only roles
	ModelClaudeAgent = "cli:claude:agent" // autonomous: own tools in the folder + the bridge
	ModelCodexAgent  = "cli:codex:agent"  // autonomous; Codex has no chat mode
)

// Exact user-facing refusals (docs/reference.md §3: the reference article's words).
const (
	msgCodexChat = "codex has no tool-less chat mode — use 'cli:codex:agent' for an autonomous run instead."
)

// ErrCodexChat is returned for "cli:codex", which does not exist.
var ErrCodexChat = errors.New(msgCodexChat)

// ErrChatNeedsTools is wrapped by CheckRole when cli:claude (chat mode,
// which can call nothing) is assigned to a role that needs tools.
var ErrChatNeedsTools = errors.New("'cli:claude' is chat mode and can call no tools — use 'cli:claude:agent' for an autonomous run instead")

// Model is a parsed CLI model id: a mode (cli:claude, cli:claude:agent,
// cli:codex:agent), optionally followed by "@" and the model the CLI runs
// (cli:claude:agent@opus → `claude --model opus`, cli:codex:agent@gpt-5 →
// `codex exec -m gpt-5`). Without it the CLI uses its own default.
type Model struct {
	ID    string `json:"id"`
	Agent Agent  `json:"agent"`
	// Chat is true for the tool-less mode (cli:claude only).
	Chat bool `json:"chat"`
	// CLIModel is the model passed to the CLI ("" = the CLI's default).
	CLIModel string `json:"cliModel"`
}

// WithCLIModel is the id of mode running the CLI's model name ("" gives
// the mode alone: the CLI's default).
func WithCLIModel(mode, name string) string {
	mode, _, _ = strings.Cut(strings.TrimSpace(mode), "@")
	if name = strings.TrimSpace(name); name == "" {
		return mode
	}
	return mode + "@" + name
}

// CheckCLIModel accepts the model names the CLIs take: aliases (opus,
// sonnet[1m]), full ids (claude-sonnet-4-5-20250929, gpt-5-codex, a Vertex
// id with "@", a provider's "org/model"). A name is one argv element, so
// no character can reach a shell; this refuses what would be read as a
// flag or could never be a model name.
func CheckCLIModel(name string) error {
	if name == "" || len(name) > 120 || strings.HasPrefix(name, "-") {
		return fmt.Errorf("%q is not a model name: pick one from the list, or Default", name)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.:/@[]", r)) {
			return fmt.Errorf("the model name %q has a character (%q) no model name has: pick one from the list, or Default", name, r)
		}
	}
	return nil
}

// Models lists the ids of an agent in the order the picker shows them.
func Models(a Agent) []string {
	switch a {
	case Claude:
		return []string{ModelClaudeChat, ModelClaudeAgent}
	case Codex:
		return []string{ModelCodexAgent}
	}
	return nil
}

// IsCLIModel reports whether id belongs to the External AI group (including
// ids that parse only to a refusal, like cli:codex).
func IsCLIModel(id string) bool { return strings.HasPrefix(strings.TrimSpace(id), "cli:") }

// ParseModel parses a cli:* model id, with or without "@<CLI model>".
// "cli:codex" fails with the exact refusal of the spec; anything else
// unknown says which ids exist.
func ParseModel(id string) (Model, error) {
	mode, name, withName := strings.Cut(strings.TrimSpace(id), "@")
	m, err := parseMode(mode)
	if err != nil || !withName {
		return m, err
	}
	if err := CheckCLIModel(name); err != nil {
		return Model{}, err
	}
	m.ID, m.CLIModel = mode+"@"+name, name
	return m, nil
}

func parseMode(id string) (Model, error) {
	switch id {
	case ModelClaudeChat:
		return Model{ID: ModelClaudeChat, Agent: Claude, Chat: true}, nil
	case ModelClaudeAgent:
		return Model{ID: ModelClaudeAgent, Agent: Claude}, nil
	case ModelCodexAgent:
		return Model{ID: ModelCodexAgent, Agent: Codex}, nil
	case "cli:codex", "cli:codex:chat":
		return Model{}, ErrCodexChat
	}
	return Model{}, fmt.Errorf("unknown model %q: the External AI models are %s, %s and %s",
		id, ModelClaudeChat, ModelClaudeAgent, ModelCodexAgent)
}

// CheckRole refuses chat mode for a role that needs tools, naming the role.
func (m Model) CheckRole(role string, needsTools bool) error {
	if m.Chat && needsTools {
		if role == "" {
			return ErrChatNeedsTools
		}
		return fmt.Errorf("the %s role needs tools, but %w", role, ErrChatNeedsTools)
	}
	return nil
}
