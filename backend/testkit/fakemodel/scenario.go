package fakemodel

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Builders for the scripted turns the real CLIs understand. Tool names and
// argument shapes are the ones the pinned CLIs offer in their requests
// (checked by the live tests, which fail when a CLI stops offering them).

// Text is a plain answer.
func Text(s string) Turn { return Turn{Text: s} }

// Slow is a plain answer that starts only after d, so the CLI's working
// spinner runs meanwhile.
func Slow(d time.Duration, s string) Turn { return Turn{Text: s, Delay: d} }

// Stalled streams text, then keeps the turn open for d (to interrupt it).
func Stalled(s string, d time.Duration) Turn { return Turn{Text: s, Stall: d} }

// Question is a final answer that asks the user something.
func Question(s string) Turn { return Turn{Text: s} }

func args(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("fakemodel: encoding tool arguments: %v", err))
	}
	return b
}

// Tool is a single call of any tool with JSON arguments.
func Tool(name string, v any) Turn { return Turn{Calls: []Call{{Name: name, Args: args(v)}}} }

// --- Claude Code (Anthropic Messages API) ---

// ClaudeBash runs a shell command with Claude Code's Bash tool.
func ClaudeBash(command, description string) Turn {
	return Tool("Bash", map[string]any{"command": command, "description": description})
}

// ClaudeWrite creates or overwrites a file with Claude Code's Write tool
// (path must be absolute).
func ClaudeWrite(path, content string) Turn {
	return Tool("Write", map[string]any{"file_path": path, "content": content})
}

// ClaudeEdit replaces text in a file with Claude Code's Edit tool.
func ClaudeEdit(path, old, new string) Turn {
	return Tool("Edit", map[string]any{"file_path": path, "old_string": old, "new_string": new})
}

// MCPName is the tool name Claude Code gives a tool of an MCP server:
// mcp__<server>__<tool>.
func MCPName(server, tool string) string { return "mcp__" + server + "__" + tool }

// ClaudeMCP calls a tool of a named MCP server (e.g. osfoundry, memory_search).
func ClaudeMCP(server, tool string, v any) Turn { return Tool(MCPName(server, tool), v) }

// ClaudeToolSearch loads deferred tools by name (Claude Code 2.1.x defers
// AskUserQuestion, ExitPlanMode and MCP tools behind ToolSearch).
func ClaudeToolSearch(names ...string) Turn {
	return Tool("ToolSearch", map[string]any{"query": "select:" + strings.Join(names, ","), "max_results": len(names)})
}

// ClaudeExitPlan asks the user to approve a plan (plan mode's exit prompt).
func ClaudeExitPlan(plan string) Turn {
	return Tool("ExitPlanMode", map[string]any{"plan": plan})
}

// ClaudeAsk shows Claude Code's question menu with the given options.
func ClaudeAsk(header, question string, options ...string) Turn {
	opts := make([]map[string]any, 0, len(options))
	for _, o := range options {
		opts = append(opts, map[string]any{"label": o, "description": "Choose " + o})
	}
	return Tool("AskUserQuestion", map[string]any{"questions": []map[string]any{{
		"question": question, "header": header, "options": opts, "multiSelect": false}}})
}

// --- Codex (OpenAI Responses API) ---

// CodexExec runs a shell command with Codex's exec_command tool.
func CodexExec(cmd string) Turn {
	return Tool("exec_command", map[string]any{"cmd": cmd})
}

// CodexPatch applies a patch with Codex's free-form apply_patch tool.
func CodexPatch(patch string) Turn {
	return Turn{Calls: []Call{{Name: "apply_patch", Input: patch}}}
}

// CodexAddFile creates a file (path relative to the working folder) through apply_patch.
func CodexAddFile(path, content string) Turn {
	var b strings.Builder
	b.WriteString("*** Begin Patch\n*** Add File: " + path + "\n")
	for _, l := range strings.Split(strings.TrimSuffix(content, "\n"), "\n") {
		b.WriteString("+" + l + "\n")
	}
	b.WriteString("*** End Patch\n")
	return CodexPatch(b.String())
}

// CodexMCP calls a tool of a named MCP server. Codex 0.169 defers MCP tools:
// a CodexToolSearch turn must come first, which answers with the tool in
// namespace "mcp__<server>"; the call then names the tool in that namespace.
func CodexMCP(server, tool string, v any) Turn {
	return Turn{Calls: []Call{{Name: tool, Namespace: "mcp__" + server, Args: args(v)}}}
}

// CodexEscalated runs a command outside Codex's sandbox, which needs the
// user's approval (the "Would you like to run the following command?" prompt).
func CodexEscalated(cmd, justification string) Turn {
	return Tool("exec_command", map[string]any{"cmd": cmd,
		"sandbox_permissions": "require_escalated", "justification": justification})
}

// CodexAsk shows Codex's question menu (request_user_input; Plan mode only).
func CodexAsk(header, question string, options ...string) Turn {
	opts := make([]map[string]any, 0, len(options))
	for _, o := range options {
		opts = append(opts, map[string]any{"label": o, "description": "Choose " + o})
	}
	return Tool("request_user_input", map[string]any{"questions": []map[string]any{{
		"id": "choice", "header": header, "question": question, "options": opts}}})
}

// CodexToolSearch searches Codex's deferred tools (MCP tools are deferred):
// the next request offers what matched.
func CodexToolSearch(query string) Turn {
	return Turn{Calls: []Call{{Name: "tool_search", Search: true, Args: args(map[string]any{"query": query, "limit": 8})}}}
}
