package fakemodel

import (
	"encoding/json"
	"fmt"
	"strings"
)

// ToolResult is the outcome of a tool call as the CLI sent it back to the model.
type ToolResult struct {
	CallID  string
	Text    string
	IsError bool
}

// ToolResults returns every tool result in a request body, oldest first:
// Anthropic tool_result blocks, OpenAI function_call_output /
// custom_tool_call_output items, Gemini functionResponse parts or Chat
// Completions tool messages.
func (r Request) ToolResults() []ToolResult {
	switch r.API {
	case "anthropic":
		return collect(r.Body, func(req *struct {
			Messages []struct {
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}, add func(ToolResult)) {
			for _, m := range req.Messages {
				var blocks []struct {
					Type      string          `json:"type"`
					ToolUseID string          `json:"tool_use_id"`
					Content   json.RawMessage `json:"content"`
					IsError   bool            `json:"is_error"`
				}
				if json.Unmarshal(m.Content, &blocks) != nil {
					continue // a plain string message
				}
				for _, b := range blocks {
					if b.Type == "tool_result" {
						add(ToolResult{CallID: b.ToolUseID, Text: flatten(b.Content), IsError: b.IsError})
					}
				}
			}
		})
	case "openai":
		return collect(r.Body, func(req *struct {
			Input []struct {
				Type   string          `json:"type"`
				CallID string          `json:"call_id"`
				Output json.RawMessage `json:"output"`
			} `json:"input"`
		}, add func(ToolResult)) {
			for _, it := range req.Input {
				if it.Type == "function_call_output" || it.Type == "custom_tool_call_output" {
					add(ToolResult{CallID: it.CallID, Text: flatten(it.Output)})
				}
			}
		})
	case "gemini":
		return collect(r.Body, func(req *struct {
			Contents []struct {
				Parts []struct {
					FunctionResponse *struct {
						ID       string          `json:"id"`
						Name     string          `json:"name"`
						Response json.RawMessage `json:"response"`
					} `json:"functionResponse"`
				} `json:"parts"`
			} `json:"contents"`
		}, add func(ToolResult)) {
			for _, c := range req.Contents {
				for _, p := range c.Parts {
					if fr := p.FunctionResponse; fr != nil {
						add(ToolResult{CallID: fr.ID, Text: string(fr.Response)})
					}
				}
			}
		})
	case "chat":
		return collect(r.Body, func(req *struct {
			Messages []struct {
				Role       string          `json:"role"`
				ToolCallID string          `json:"tool_call_id"`
				Content    json.RawMessage `json:"content"`
			} `json:"messages"`
		}, add func(ToolResult)) {
			for _, m := range req.Messages {
				if m.Role == "tool" {
					add(ToolResult{CallID: m.ToolCallID, Text: flatten(m.Content)})
				}
			}
		})
	}
	return nil
}

// collect decodes body as one API's request shape and gathers the tool
// results find adds from it; a body that does not decode has none.
func collect[T any](body []byte, find func(req *T, add func(ToolResult))) []ToolResult {
	var req T
	if json.Unmarshal(body, &req) != nil {
		return nil
	}
	var out []ToolResult
	find(&req, func(tr ToolResult) { out = append(out, tr) })
	return out
}

// flatten turns a string or an array of {type:text,text} parts into text.
func flatten(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Text)
		}
		return b.String()
	}
	return string(raw)
}

// ToolNames lists the names of the tools the CLI offered in a request
// (custom and function tools; built-ins such as web_search by their type).
func (r Request) ToolNames() []string {
	var req struct {
		Tools []struct {
			Name     string `json:"name"`
			Type     string `json:"type"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"` // Chat Completions
			FunctionDeclarations []struct {
				Name string `json:"name"`
			} `json:"functionDeclarations"` // Gemini
		} `json:"tools"`
	}
	if json.Unmarshal(r.Body, &req) != nil {
		return nil
	}
	out := make([]string, 0, len(req.Tools))
	for _, t := range req.Tools {
		for _, d := range t.FunctionDeclarations {
			out = append(out, d.Name)
		}
		switch {
		case len(t.FunctionDeclarations) > 0:
		case t.Name != "":
			out = append(out, t.Name)
		case t.Function.Name != "":
			out = append(out, t.Function.Name)
		default:
			out = append(out, t.Type)
		}
	}
	return out
}

// HasTool reports whether the request offered a tool of that name.
func (r Request) HasTool(name string) bool {
	for _, n := range r.ToolNames() {
		if n == name {
			return true
		}
	}
	return false
}

// Summary is a one-line description of a request for failure messages: API,
// side or turn, and the start of the last message.
func (r Request) Summary() string {
	last := ""
	m := r.JSON()
	for _, key := range []string{"messages", "input", "contents"} {
		if arr, ok := m[key].([]any); ok && len(arr) > 0 {
			b, _ := json.Marshal(arr[len(arr)-1])
			last = string(b)
		}
	}
	if len(last) > 160 {
		last = last[:160] + "…"
	}
	return fmt.Sprintf("%s %s api=%s side=%v turn=%d last=%s", r.Method, r.Path, r.API, r.Side, r.Turn, last)
}
