package fakemodel

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// OpenAI Chat Completions (POST /v1/chat/completions): what Qwen Code and
// other OpenAI-compatible CLIs speak.

// chatSide reports whether a Chat Completions request is a side request.
// The Gemini-CLI lineage (Qwen Code) asks its helper questions (next
// speaker, loop checks, summaries) without streaming; conversation turns
// always stream.
//
// Qwen Code 0.24 also runs a memory-extraction subagent after a turn (its
// system prompt says "You are now acting as the … subagent") and asks for a
// next-prompt suggestion ("[SUGGESTION MODE: …]"), both streamed; opencode
// 1.18 streams its title request ("You are a title generator").
func chatSide(body []byte) bool {
	var req struct {
		Stream   bool `json:"stream"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal(body, &req) != nil {
		return true
	}
	if !req.Stream || len(req.Messages) == 0 {
		return true
	}
	first, last := req.Messages[0], req.Messages[len(req.Messages)-1]
	sys := ""
	if first.Role == "system" {
		sys = flatten(first.Content)
	}
	return strings.Contains(sys, "You are now acting as") || strings.HasPrefix(sys, "You are a title generator") ||
		last.Role == "user" && strings.Contains(flatten(last.Content), "[SUGGESTION MODE:")
}

// sideJSON answers a side request that asks for JSON with something that
// lets the CLI carry on: "the user speaks next", "no loop".
func sideJSON(body []byte) string {
	s := string(body)
	switch {
	case strings.Contains(s, "[SUGGESTION MODE:"):
		return "" // no suggestion: the prompt stays empty
	case strings.Contains(s, "next_speaker"):
		return `{"reasoning":"The model finished its answer.","next_speaker":"user"}`
	case strings.Contains(s, "You are a title generator"):
		return "Fake session"
	case strings.Contains(s, "title"):
		return `{"title":"Fake session"}`
	}
	return `{"reasoning":"ok","unproductive_state_confidence":0,"is_stuck":false}`
}

func (s *Server) serveChat(w http.ResponseWriter, r *http.Request, body []byte, t Turn, side bool) {
	var req struct {
		Model  string `json:"model"`
		Stream bool   `json:"stream"`
	}
	if !decodeOpenAI(w, body, &req) {
		return
	}
	if side {
		t = Turn{Text: sideJSON(body)}
	}
	id := s.newID("chatcmpl")
	type call = map[string]any
	var calls []call
	for i, c := range t.Calls {
		a := string(c.Args)
		if a == "" {
			a = "{}"
		}
		calls = append(calls, call{"index": i, "id": s.newID("call"), "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": a}})
	}
	finish := "stop"
	if len(calls) > 0 {
		finish = "tool_calls"
	}
	inTok := approxTokens(body)
	usage := map[string]any{"prompt_tokens": inTok, "completion_tokens": 5, "total_tokens": inTok + 5,
		"prompt_tokens_details": map[string]any{"cached_tokens": 0}}
	if !req.Stream {
		if !wait(r, t) {
			return
		}
		msg := map[string]any{"role": "assistant", "content": t.Text}
		if len(calls) > 0 {
			msg["tool_calls"] = calls
		}
		writeJSON(w, map[string]any{"id": id, "object": "chat.completion", "created": time.Now().Unix(),
			"model": req.Model, "choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
			"usage": usage})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	f, _ := w.(http.Flusher)
	chunk := func(delta map[string]any, finish any, usage any) {
		m := map[string]any{"id": id, "object": "chat.completion.chunk", "created": time.Now().Unix(),
			"model": req.Model, "choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		if usage != nil {
			m["usage"] = usage
		}
		b, _ := json.Marshal(m)
		w.Write([]byte("data: " + string(b) + "\n\n")) //nolint:errcheck // client gone
		if f != nil {
			f.Flush()
		}
	}
	chunk(map[string]any{"role": "assistant", "content": ""}, nil, nil)
	if !wait(r, t) {
		return
	}
	for _, c := range chunks(t.Text) {
		chunk(map[string]any{"content": c}, nil, nil)
	}
	if t.Text != "" && !stall(r, t) {
		return
	}
	for _, c := range calls {
		fn := c["function"].(map[string]any)
		chunk(map[string]any{"tool_calls": []any{map[string]any{"index": c["index"], "id": c["id"], "type": "function",
			"function": map[string]any{"name": fn["name"], "arguments": ""}}}}, nil, nil)
		chunk(map[string]any{"tool_calls": []any{map[string]any{"index": c["index"],
			"function": map[string]any{"arguments": fn["arguments"]}}}}, nil, nil)
	}
	chunk(map[string]any{}, finish, usage)
	w.Write([]byte("data: [DONE]\n\n")) //nolint:errcheck // client gone
	if f != nil {
		f.Flush()
	}
}
