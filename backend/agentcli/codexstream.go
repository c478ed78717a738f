package agentcli

import (
	"encoding/json"
	"fmt"
	"strings"
)

// codexDecoder reads `codex exec --json`: thread.started, turn.started,
// item.started/item.completed (agent_message, reasoning, command_execution,
// file_change, mcp_tool_call, …), turn.completed with usage, turn.failed
// and error. Codex reports whole items, never tokens.
type codexDecoder struct {
	s        *sink
	started  map[string]bool // items already shown when they started
	sawFinal bool
}

func newCodexDecoder(s *sink) *codexDecoder {
	return &codexDecoder{s: s, started: map[string]bool{}}
}

type codexItem struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Text     string `json:"text"`
	Command  string `json:"command"`
	ExitCode *int   `json:"exit_code"`
	Status   string `json:"status"`
	Changes  []struct {
		Path string `json:"path"`
		Kind string `json:"kind"`
	} `json:"changes"`
	Server    string          `json:"server"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
	Error     json.RawMessage `json:"error"`
	Message   string          `json:"message"`
}

type codexLine struct {
	Type     string    `json:"type"`
	ThreadID string    `json:"thread_id"`
	Item     codexItem `json:"item"`
	Usage    struct {
		InputTokens       int `json:"input_tokens"`
		CachedInputTokens int `json:"cached_input_tokens"`
		OutputTokens      int `json:"output_tokens"`
	} `json:"usage"`
	Message string          `json:"message"`
	Error   json.RawMessage `json:"error"`
}

func (d *codexDecoder) line(b []byte) {
	var l codexLine
	if err := json.Unmarshal(b, &l); err != nil || l.Type == "" {
		d.s.send(KindRaw, string(b))
		return
	}
	switch l.Type {
	case "thread.started":
		if l.ThreadID != "" {
			d.s.res.SessionID = l.ThreadID
			d.s.send(KindSession, l.ThreadID)
		}
	case "turn.started":
	case "item.started":
		d.itemStarted(l.Item)
	case "item.updated":
	case "item.completed":
		d.itemCompleted(l.Item, b)
	case "turn.completed":
		d.sawFinal = true
		u := &d.s.res.Usage
		u.InputTokens += l.Usage.InputTokens
		u.CachedInputTokens += l.Usage.CachedInputTokens
		u.OutputTokens += l.Usage.OutputTokens
		// input_tokens excludes the cached part (docs/reference.md §3).
		u.ContextTokens = l.Usage.InputTokens + l.Usage.CachedInputTokens
		d.s.res.NumTurns++
	case "turn.failed":
		d.sawFinal = true
		d.s.res.IsError = true
		msg := errText(l.Error, l.Message)
		d.s.res.Errors = append(d.s.res.Errors, msg)
		d.s.send(KindError, "Codex: "+msg)
	case "error":
		msg := errText(l.Error, l.Message)
		d.s.res.Errors = append(d.s.res.Errors, msg)
		d.s.send(KindError, "Codex: "+msg)
	default:
		d.s.send(KindRaw, string(b))
	}
}

// Commands and MCP calls are shown when they start, so a long command is
// visible while it runs; the completed item then adds only a failure.
func (d *codexDecoder) itemStarted(it codexItem) {
	switch it.Type {
	case "command_execution":
		d.started[it.ID] = true
		d.s.send(KindProgress, "Using shell — "+clip(shellCommand(it.Command), 300))
	case "mcp_tool_call":
		d.started[it.ID] = true
		d.s.send(KindProgress, "Using "+it.Tool+"…")
	}
}

func (d *codexDecoder) itemCompleted(it codexItem, raw []byte) {
	seen := d.started[it.ID]
	delete(d.started, it.ID)
	switch it.Type {
	case "agent_message":
		d.s.res.Text = it.Text
		d.s.send(KindText, it.Text)
	case "reasoning":
		if t := strings.TrimSpace(it.Text); t != "" {
			d.s.send(KindProgress, "Thinking: "+clip(oneLine(t), 300))
		}
	case "command_execution":
		if !seen {
			d.s.send(KindProgress, "Using shell — "+clip(shellCommand(it.Command), 300))
		}
		if it.ExitCode != nil && *it.ExitCode != 0 {
			d.s.send(KindProgress, fmt.Sprintf("Shell command exited with %d", *it.ExitCode))
		}
	case "file_change":
		for _, c := range it.Changes {
			d.s.send(KindProgress, "Edited "+d.s.rel(c.Path))
		}
	case "mcp_tool_call":
		if !seen {
			d.s.send(KindProgress, "Using "+it.Tool+"…")
		}
		if it.Status == "failed" || hasError(it.Error) {
			d.s.send(KindProgress, fmt.Sprintf("%s failed: %s", it.Tool, clip(errText(it.Error, ""), 300)))
		}
	case "error":
		msg := it.Message
		d.s.res.Errors = append(d.s.res.Errors, msg)
		d.s.send(KindError, "Codex: "+msg)
	case "todo_list", "web_search":
		// informational items of newer versions: keep them visible raw
		d.s.send(KindRaw, string(raw))
	default:
		d.s.send(KindRaw, string(raw))
	}
}

func hasError(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return s != "" && s != "null"
}

// errText reads Codex's error shapes: a string, {"message": …} or nothing.
func errText(raw json.RawMessage, fallback string) string {
	if hasError(raw) {
		var s string
		if json.Unmarshal(raw, &s) == nil && s != "" {
			return s
		}
		var m struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(raw, &m) == nil && m.Message != "" {
			return m.Message
		}
		return string(raw)
	}
	if fallback != "" {
		return fallback
	}
	return "unknown error"
}

// shellCommand shows the command the model wrote, without the
// `/bin/bash -lc '…'` wrapper Codex runs it in.
func shellCommand(c string) string {
	for _, sh := range []string{"/bin/bash -lc ", "/bin/zsh -lc ", "/bin/sh -lc ", "bash -lc ", "zsh -lc "} {
		rest, ok := strings.CutPrefix(c, sh)
		if !ok || len(rest) < 2 || rest[0] != '\'' || rest[len(rest)-1] != '\'' {
			continue
		}
		inner := rest[1 : len(rest)-1]
		// '\'' is how a quote inside single quotes is written.
		return strings.ReplaceAll(inner, `'\''`, "'")
	}
	return c
}
