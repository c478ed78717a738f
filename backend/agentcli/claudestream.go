package agentcli

import (
	"encoding/json"
	"fmt"
	"strings"
)

// claudeDecoder reads `claude -p --output-format stream-json --verbose
// --include-partial-messages`: system/init, stream_event partials, one
// assistant record per content block, user records carrying tool results,
// and the final result.
type claudeDecoder struct {
	s        *sink
	tools    map[string]string // tool_use id → name, to name failed results
	sawFinal bool
	// context is the prompt size of the last top-level model call: the
	// result's usage sums every call, which is not the context size.
	context int
}

func newClaudeDecoder(s *sink) *claudeDecoder {
	return &claudeDecoder{s: s, tools: map[string]string{}}
}

type claudeBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

type claudeLine struct {
	Type       string `json:"type"`
	Subtype    string `json:"subtype"`
	SessionID  string `json:"session_id"`
	Model      string `json:"model"`
	MCPServers []struct {
		Name   string `json:"name"`
		Status string `json:"status"`
	} `json:"mcp_servers"`
	Event struct {
		Type  string `json:"type"`
		Delta struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"delta"`
	} `json:"event"`
	ParentToolUseID *string `json:"parent_tool_use_id"`
	Message         struct {
		Model   string          `json:"model"`
		Content json.RawMessage `json:"content"`
		Usage   *struct {
			InputTokens         int `json:"input_tokens"`
			CacheReadTokens     int `json:"cache_read_input_tokens"`
			CacheCreationTokens int `json:"cache_creation_input_tokens"`
		} `json:"usage"`
	} `json:"message"`
	// result
	IsError      bool     `json:"is_error"`
	Result       string   `json:"result"`
	Errors       []string `json:"errors"`
	NumTurns     int      `json:"num_turns"`
	TotalCostUSD float64  `json:"total_cost_usd"`
	Usage        struct {
		InputTokens         int `json:"input_tokens"`
		OutputTokens        int `json:"output_tokens"`
		CacheReadTokens     int `json:"cache_read_input_tokens"`
		CacheCreationTokens int `json:"cache_creation_input_tokens"`
	} `json:"usage"`
	ModelUsage        map[string]ModelUsage `json:"modelUsage"`
	PermissionDenials []struct {
		ToolName  string          `json:"tool_name"`
		ToolInput json.RawMessage `json:"tool_input"`
	} `json:"permission_denials"`
}

// Record types that carry nothing to show (hooks, status pings, rate-limit
// notices); anything else unknown is kept as a raw line.
var claudeQuiet = map[string]bool{"rate_limit_event": true, "keep_alive": true}

func (d *claudeDecoder) line(b []byte) {
	var l claudeLine
	if err := json.Unmarshal(b, &l); err != nil || l.Type == "" {
		d.s.send(KindRaw, string(b))
		return
	}
	switch l.Type {
	case "system":
		d.system(l, b)
	case "stream_event":
		// Only the top-level answer streams as partial text; a subagent's
		// text (parent_tool_use_id set) is not the role's output.
		if l.Event.Type == "content_block_delta" && l.Event.Delta.Type == "text_delta" && l.ParentToolUseID == nil {
			d.s.send(KindPartial, l.Event.Delta.Text)
		}
	case "assistant":
		d.assistant(l)
	case "user":
		d.user(l)
	case "result":
		d.result(l)
	default:
		if !claudeQuiet[l.Type] {
			d.s.send(KindRaw, string(b))
		}
	}
}

func (d *claudeDecoder) system(l claudeLine, b []byte) {
	if l.Subtype != "init" {
		// hook and status records are Claude's own bookkeeping
		if !strings.HasPrefix(l.Subtype, "hook") && l.Subtype != "status" {
			d.s.send(KindRaw, string(b))
		}
		return
	}
	if l.SessionID != "" && d.s.res.SessionID == "" {
		d.s.res.SessionID = l.SessionID
		d.s.send(KindSession, l.SessionID)
	}
	if l.Model != "" {
		d.s.res.CLIModel = l.Model
	}
	for _, m := range l.MCPServers {
		if m.Name == "osfoundry" && m.Status != "connected" {
			d.s.send(KindProgress, fmt.Sprintf("osFoundry tools are unavailable in this run (bridge %s)", m.Status))
		}
	}
}

func (d *claudeDecoder) assistant(l claudeLine) {
	if u := l.Message.Usage; u != nil && l.ParentToolUseID == nil {
		d.context = u.InputTokens + u.CacheReadTokens + u.CacheCreationTokens
	}
	if l.Message.Model != "" && d.s.res.CLIModel == "" {
		d.s.res.CLIModel = l.Message.Model
	}
	var blocks []claudeBlock
	if json.Unmarshal(l.Message.Content, &blocks) != nil {
		return
	}
	for _, c := range blocks {
		switch c.Type {
		case "text":
			if l.ParentToolUseID == nil && strings.TrimSpace(c.Text) != "" {
				d.s.send(KindText, c.Text)
			}
		case "thinking":
			if t := strings.TrimSpace(c.Thinking); t != "" {
				d.s.send(KindProgress, "Thinking: "+clip(oneLine(t), 300))
			}
		case "tool_use":
			d.tools[c.ID] = toolName(c.Name)
			if c.Name == "ToolSearch" {
				// Claude loading deferred tool schemas, not a step of the task.
				continue
			}
			d.s.send(KindProgress, "Using "+toolName(c.Name)+" — "+compactJSON(c.Input))
		}
	}
}

// user records carry tool results back to the model; only failures are
// worth a line (the call itself was already shown).
func (d *claudeDecoder) user(l claudeLine) {
	var blocks []claudeBlock
	if json.Unmarshal(l.Message.Content, &blocks) != nil {
		return
	}
	for _, c := range blocks {
		if c.Type == "tool_result" && c.IsError {
			name := d.tools[c.ToolUseID]
			if name == "" {
				name = "a tool"
			}
			d.s.send(KindProgress, fmt.Sprintf("%s failed: %s", name, clip(oneLine(blockText(c.Content)), 300)))
		}
	}
}

func (d *claudeDecoder) result(l claudeLine) {
	d.sawFinal = true
	r := d.s.res
	if l.SessionID != "" {
		r.SessionID = l.SessionID
	}
	r.Text = l.Result
	r.IsError = l.IsError
	if l.IsError {
		msg := strings.TrimSpace(l.Result)
		if msg == "" {
			msg = strings.Join(l.Errors, "; ")
		}
		if msg == "" {
			msg = "Claude Code reported an error (" + l.Subtype + ")"
		}
		r.Errors = append(r.Errors, msg)
	}
	r.NumTurns = l.NumTurns
	r.ReportedCostUSD = l.TotalCostUSD
	r.Usage = Usage{
		InputTokens:         l.Usage.InputTokens,
		CachedInputTokens:   l.Usage.CacheReadTokens,
		CacheCreationTokens: l.Usage.CacheCreationTokens,
		OutputTokens:        l.Usage.OutputTokens,
		ContextTokens:       d.context,
	}
	if d.context == 0 {
		r.Usage.ContextTokens = l.Usage.InputTokens + l.Usage.CacheReadTokens + l.Usage.CacheCreationTokens
	}
	r.ModelUsage = l.ModelUsage
	for _, p := range l.PermissionDenials {
		r.PermissionDenials = append(r.PermissionDenials, Denial{Tool: toolName(p.ToolName), Input: p.ToolInput})
	}
	if len(r.PermissionDenials) > 0 {
		d.s.send(KindProgress, fmt.Sprintf("Claude Code refused %d tool call(s)", len(r.PermissionDenials)))
	}
}

// blockText flattens a tool_result content (a string or text blocks).
func blockText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var out []string
		for _, p := range parts {
			out = append(out, p.Text)
		}
		return strings.Join(out, " ")
	}
	return string(raw)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
