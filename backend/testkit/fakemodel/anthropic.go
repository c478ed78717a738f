package fakemodel

import (
	"encoding/json"
	"net/http"
	"strings"
	"unicode/utf8"
)

// anthropicSide reports whether a Messages request is one of Claude Code's
// side requests (session title, quota probe, permission classifier, …)
// rather than a turn of the conversation. Side requests must not consume the
// script, or the scripted answers would land on the wrong request.
//
// Measured on 2.1.328: conversation turns offer tools; the title request
// offers none and asks for structured output (output_config.format); the
// quota probe asks for a single token. A conversation turn with every tool
// disallowed (chat mode) has neither marker and stays a main request.
func anthropicSide(body []byte) bool {
	var req struct {
		Tools        []json.RawMessage `json:"tools"`
		MaxTokens    int               `json:"max_tokens"`
		OutputConfig struct {
			Format json.RawMessage `json:"format"`
		} `json:"output_config"`
	}
	if json.Unmarshal(body, &req) != nil {
		return true
	}
	if len(req.Tools) > 0 {
		return false
	}
	return len(req.OutputConfig.Format) > 0 || req.MaxTokens == 1
}

// anthropicSideText answers side requests with something each of them
// accepts: the title generator wants JSON with a title.
func anthropicSideText(body []byte) string {
	s := string(body)
	switch {
	case strings.Contains(s, "title"):
		return `{"title": "Fake session"}`
	case strings.Contains(s, "isNewTopic"):
		return `{"isNewTopic": false, "title": null}`
	}
	return "ok"
}

func (s *Server) serveAnthropic(w http.ResponseWriter, r *http.Request, body []byte, t Turn, side bool) {
	var req struct {
		Model  string `json:"model"`
		Stream bool   `json:"stream"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		writeJSON(w, map[string]any{"type": "error", "error": map[string]any{
			"type": "invalid_request_error", "message": "fakemodel: body is not JSON: " + err.Error()}})
		return
	}
	if s.refuses(req.Model) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		writeJSON(w, map[string]any{"type": "error", "error": map[string]any{"type": "not_found_error", "message": "model: " + req.Model}})
		return
	}
	if side {
		t = Turn{Text: anthropicSideText(body)}
	}
	msgID := s.newID("msg")
	type block map[string]any
	var content []block
	if t.Text != "" {
		content = append(content, block{"type": "text", "text": t.Text})
	}
	for _, c := range t.Calls {
		args := c.Args
		if len(args) == 0 {
			args = json.RawMessage(`{}`)
		}
		content = append(content, block{"type": "tool_use", "id": s.newID("toolu"), "name": c.Name, "input": args})
	}
	stop := "end_turn"
	if len(t.Calls) > 0 {
		stop = "tool_use"
	}
	inTok := approxTokens(body)
	usage := map[string]any{"input_tokens": inTok, "output_tokens": 1,
		"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}

	if !req.Stream {
		if !wait(r, t) {
			return
		}
		usage["output_tokens"] = 10
		writeJSON(w, map[string]any{"id": msgID, "type": "message", "role": "assistant", "model": req.Model,
			"content": content, "stop_reason": stop, "stop_sequence": nil, "usage": usage})
		return
	}

	e := newSSE(w)
	e.send("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": msgID, "type": "message", "role": "assistant", "model": req.Model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": usage}})
	e.send("ping", map[string]any{"type": "ping"})
	if !wait(r, t) {
		return
	}
	outTok := 0
	for i, b := range content {
		switch b["type"] {
		case "text":
			e.send("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "text", "text": ""}})
			for _, c := range chunks(b["text"].(string)) {
				outTok++
				e.send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
					"delta": map[string]any{"type": "text_delta", "text": c}})
			}
			if !stall(r, t) {
				return
			}
		case "tool_use":
			e.send("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "tool_use", "id": b["id"], "name": b["name"], "input": map[string]any{}}})
			js := string(b["input"].(json.RawMessage))
			// Split the arguments in two like a real stream does.
			half := len(js) / 2
			for half > 0 && !utf8.RuneStart(js[half]) {
				half--
			}
			for _, part := range []string{js[:half], js[half:]} {
				outTok++
				e.send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
					"delta": map[string]any{"type": "input_json_delta", "partial_json": part}})
			}
		}
		e.send("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	e.send("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"input_tokens": inTok, "output_tokens": outTok + 1,
			"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}})
	e.send("message_stop", map[string]any{"type": "message_stop"})
}
