package fakemodel

import (
	"encoding/json"
	"net/http"
	"time"
)

// CachedTokens is what every Responses usage reports as cached input, so
// tests can check that a reader adds it back (Codex's input_tokens excludes it).
const CachedTokens = 128

// openaiSide reports whether a Responses request is one of Codex's side
// requests (the thread title) rather than a conversation turn. Measured on
// 0.169.0: the title request says thread_source "thread_title" in its turn
// metadata and asks for a structured {"title"} answer.
func openaiSide(body []byte) bool {
	var req struct {
		ClientMetadata map[string]string `json:"client_metadata"`
		Text           struct {
			Format struct {
				Schema struct {
					Properties map[string]json.RawMessage `json:"properties"`
				} `json:"schema"`
			} `json:"format"`
		} `json:"text"`
	}
	if json.Unmarshal(body, &req) != nil {
		return true
	}
	var meta struct {
		ThreadSource string `json:"thread_source"`
	}
	if json.Unmarshal([]byte(req.ClientMetadata["x-codex-turn-metadata"]), &meta) == nil &&
		meta.ThreadSource == "thread_title" {
		return true
	}
	props := req.Text.Format.Schema.Properties
	_, title := props["title"]
	return len(props) == 1 && title
}

// decodeOpenAI decodes a request body for the OpenAI APIs (Responses and
// Chat Completions); on bad JSON it answers 400 with their error shape.
func decodeOpenAI(w http.ResponseWriter, body []byte, v any) bool {
	if err := json.Unmarshal(body, v); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		writeJSON(w, map[string]any{"error": map[string]any{"type": "invalid_request_error",
			"message": "fakemodel: body is not JSON: " + err.Error()}})
		return false
	}
	return true
}

func (s *Server) serveOpenAI(w http.ResponseWriter, r *http.Request, body []byte, t Turn, side bool) {
	var req struct {
		Model string `json:"model"`
	}
	if !decodeOpenAI(w, body, &req) {
		return
	}
	if s.refuses(req.Model) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		writeJSON(w, map[string]any{"error": map[string]any{"message": "The model `" + req.Model + "` does not exist or you do not have access to it.",
			"type": "invalid_request_error", "param": nil, "code": "model_not_found"}})
		return
	}
	if side {
		t = Turn{Text: `{"title":"Fake session"}`}
	}
	respID := s.newID("resp")
	seq := 0
	e := newSSE(w)
	send := func(typ string, fields map[string]any) {
		fields["type"] = typ
		fields["sequence_number"] = seq
		seq++
		e.send(typ, fields)
	}
	resp := func(status string, output []any, usage any) map[string]any {
		return map[string]any{"id": respID, "object": "response", "created_at": time.Now().Unix(),
			"status": status, "model": req.Model, "output": output, "usage": usage}
	}
	send("response.created", map[string]any{"response": resp("in_progress", []any{}, nil)})
	send("response.in_progress", map[string]any{"response": resp("in_progress", []any{}, nil)})
	if !wait(r, t) {
		return
	}

	var output []any
	outTok := 0
	idx := 0
	if t.Text != "" {
		id := s.newID("msg")
		send("response.output_item.added", map[string]any{"output_index": idx, "item": map[string]any{
			"id": id, "type": "message", "status": "in_progress", "role": "assistant", "content": []any{}}})
		send("response.content_part.added", map[string]any{"item_id": id, "output_index": idx, "content_index": 0,
			"part": map[string]any{"type": "output_text", "text": "", "annotations": []any{}}})
		for _, c := range chunks(t.Text) {
			outTok++
			send("response.output_text.delta", map[string]any{"item_id": id, "output_index": idx,
				"content_index": 0, "delta": c, "logprobs": []any{}})
		}
		if !stall(r, t) {
			return
		}
		part := map[string]any{"type": "output_text", "text": t.Text, "annotations": []any{}, "logprobs": []any{}}
		send("response.output_text.done", map[string]any{"item_id": id, "output_index": idx,
			"content_index": 0, "text": t.Text, "logprobs": []any{}})
		send("response.content_part.done", map[string]any{"item_id": id, "output_index": idx,
			"content_index": 0, "part": part})
		item := map[string]any{"id": id, "type": "message", "status": "completed", "role": "assistant",
			"content": []any{part}}
		send("response.output_item.done", map[string]any{"output_index": idx, "item": item})
		output = append(output, item)
		idx++
	}
	for _, c := range t.Calls {
		callID := s.newID("call")
		var item map[string]any
		if c.Search {
			item = map[string]any{"id": s.newID("tsc"), "type": "tool_search_call", "status": "completed",
				"call_id": callID, "execution": "client", "arguments": c.Args}
			send("response.output_item.added", map[string]any{"output_index": idx, "item": item})
		} else if c.Input != "" {
			id := s.newID("ctc")
			send("response.output_item.added", map[string]any{"output_index": idx, "item": map[string]any{
				"id": id, "type": "custom_tool_call", "status": "in_progress", "call_id": callID,
				"name": c.Name, "input": ""}})
			send("response.custom_tool_call_input.delta", map[string]any{"item_id": id, "output_index": idx,
				"delta": c.Input})
			send("response.custom_tool_call_input.done", map[string]any{"item_id": id, "output_index": idx,
				"input": c.Input})
			item = map[string]any{"id": id, "type": "custom_tool_call", "status": "completed",
				"call_id": callID, "name": c.Name, "input": c.Input}
		} else {
			id := s.newID("fc")
			args := string(c.Args)
			if args == "" {
				args = "{}"
			}
			send("response.output_item.added", map[string]any{"output_index": idx, "item": map[string]any{
				"id": id, "type": "function_call", "status": "in_progress", "call_id": callID,
				"name": c.Name, "arguments": ""}})
			send("response.function_call_arguments.delta", map[string]any{"item_id": id, "output_index": idx,
				"delta": args})
			send("response.function_call_arguments.done", map[string]any{"item_id": id, "output_index": idx,
				"arguments": args})
			item = map[string]any{"id": id, "type": "function_call", "status": "completed",
				"call_id": callID, "name": c.Name, "arguments": args}
			if c.Namespace != "" {
				item["namespace"] = c.Namespace
			}
		}
		outTok += 2
		send("response.output_item.done", map[string]any{"output_index": idx, "item": item})
		output = append(output, item)
		idx++
	}
	inTok := approxTokens(body) + CachedTokens
	usage := map[string]any{
		"input_tokens":          inTok,
		"input_tokens_details":  map[string]any{"cached_tokens": CachedTokens},
		"output_tokens":         outTok + 1,
		"output_tokens_details": map[string]any{"reasoning_tokens": 0},
		"total_tokens":          inTok + outTok + 1,
	}
	send("response.completed", map[string]any{"response": resp("completed", output, usage)})
}
