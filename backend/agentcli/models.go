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

// Model is a parsed CLI model id.
type Model struct {
	ID    string `json:"id"`
	Agent Agent  `json:"agent"`
	// Chat is true for the tool-less mode (cli:claude only).
	Chat bool `json:"chat"`
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

// ParseModel parses a cli:* model id. "cli:codex" fails with the exact
// refusal of the spec; anything else unknown says which ids exist.
func ParseModel(id string) (Model, error) {
	switch strings.TrimSpace(id) {
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
