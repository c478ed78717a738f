package fakemodel

import (
	"encoding/json"
	"net/http"
	"strings"
)

// The Gemini API (POST /v1beta/models/<model>:streamGenerateContent?alt=sse,
// :generateContent, :countTokens): what Gemini CLI speaks.

// geminiSide: the Gemini CLI asks its helper questions (model routing, next
// speaker, loop checks) with :generateContent; conversation turns stream.
func geminiSide(method string) bool { return method != "streamGenerateContent" }

func (s *Server) serveGemini(w http.ResponseWriter, r *http.Request, body []byte, method string, t Turn, side bool) {
	if method == "countTokens" {
		writeJSON(w, map[string]any{"totalTokens": approxTokens(body)})
		return
	}
	if !json.Valid(body) {
		w.WriteHeader(http.StatusBadRequest)
		writeJSON(w, map[string]any{"error": map[string]any{"code": 400, "status": "INVALID_ARGUMENT",
			"message": "fakemodel: body is not JSON"}})
		return
	}
	if side {
		t = Turn{Text: geminiSideJSON(body)}
	}
	inTok := approxTokens(body)
	usage := map[string]any{"promptTokenCount": inTok, "candidatesTokenCount": 5, "totalTokenCount": inTok + 5}
	candidate := func(parts []any, finish string) map[string]any {
		c := map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "index": 0}
		if finish != "" {
			c["finishReason"] = finish
		}
		return map[string]any{"candidates": []any{c}, "usageMetadata": usage, "modelVersion": "fake-model",
			"responseId": s.newID("resp")}
	}
	var callParts []any
	for _, c := range t.Calls {
		var a any = map[string]any{}
		if len(c.Args) > 0 {
			json.Unmarshal(c.Args, &a) //nolint:errcheck // built by args()
		}
		callParts = append(callParts, map[string]any{"functionCall": map[string]any{"name": c.Name, "args": a}})
	}
	if method != "streamGenerateContent" {
		if !wait(r, t) {
			return
		}
		parts := callParts
		if t.Text != "" {
			parts = append([]any{map[string]any{"text": t.Text}}, parts...)
		}
		writeJSON(w, candidate(parts, "STOP"))
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	f, _ := w.(http.Flusher)
	send := func(v any) {
		b, _ := json.Marshal(v)
		w.Write([]byte("data: " + string(b) + "\r\n\r\n")) //nolint:errcheck // client gone
		if f != nil {
			f.Flush()
		}
	}
	if !wait(r, t) {
		return
	}
	for _, c := range chunks(t.Text) {
		send(candidate([]any{map[string]any{"text": c}}, ""))
	}
	if t.Text != "" && !stall(r, t) {
		return
	}
	if len(callParts) > 0 {
		send(candidate(callParts, ""))
	}
	send(candidate([]any{map[string]any{"text": ""}}, "STOP"))
}

// geminiSideJSON answers the Gemini CLI's helper questions.
func geminiSideJSON(body []byte) string {
	s := string(body)
	switch {
	case strings.Contains(s, "model_choice"):
		return `{"reasoning":"Simple request.","model_choice":"flash"}`
	case strings.Contains(s, "complexity_score"):
		return `{"complexity_reasoning":"Simple request.","complexity_score":10}`
	}
	return sideJSON(body)
}

// geminiPath splits /v1beta/models/<model>:<method>; ok is false for other paths.
func geminiPath(path string) (model, method string, ok bool) {
	rest, found := strings.CutPrefix(path, "/v1beta/models/")
	if !found {
		rest, found = strings.CutPrefix(path, "/v1/models/")
	}
	if !found {
		return "", "", false
	}
	return strings.Cut(rest, ":")
}
