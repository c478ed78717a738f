package connect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
)

// The articles show each tool's scope as a top-level "securitySchemes"
// field of tools/list (the OpenAI Apps SDK convention that hosts read to
// build their sign-in prompts). The Go SDK's Tool has no such field, so the
// SDK writes it under _meta (its supported extension point) and
// serveToolsList copies it to the top level of the answer. Both places
// stay: a host that reads either finds it.

// bufferedWriter holds the SDK's answer so it can be rewritten.
type bufferedWriter struct {
	h      http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedWriter) Header() http.Header { return b.h }
func (b *bufferedWriter) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}
func (b *bufferedWriter) WriteHeader(status int) {
	if b.status == 0 {
		b.status = status
	}
}

// serveToolsList runs tools/list through the SDK and lifts each tool's
// _meta.securitySchemes to a top-level field. An answer it cannot read
// (an error, a stream) passes through unchanged.
func (s *Server) serveToolsList(w http.ResponseWriter, r *http.Request) {
	b := &bufferedWriter{h: http.Header{}}
	s.mcp.ServeHTTP(b, r)
	body := b.body.Bytes()
	if b.status == http.StatusOK {
		if out, err := liftSecuritySchemes(body); err == nil {
			body = out
		}
	}
	for k, v := range b.h {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	if b.status == 0 {
		b.status = http.StatusOK
	}
	w.WriteHeader(b.status)
	_, _ = w.Write(body)
}

// liftSecuritySchemes copies _meta.securitySchemes to each tool's top
// level in a JSON-RPC tools/list answer, leaving every other byte's
// meaning as it was.
func liftSecuritySchemes(body []byte) ([]byte, error) {
	var msg map[string]json.RawMessage
	if err := json.Unmarshal(body, &msg); err != nil {
		return nil, fmt.Errorf("reading the tools/list answer: %w", err)
	}
	var result map[string]json.RawMessage
	if err := json.Unmarshal(msg["result"], &result); err != nil {
		return nil, fmt.Errorf("reading the tools/list result: %w", err)
	}
	var list []map[string]json.RawMessage
	if err := json.Unmarshal(result["tools"], &list); err != nil {
		return nil, fmt.Errorf("reading the listed tools: %w", err)
	}
	for _, t := range list {
		var meta map[string]json.RawMessage
		if err := json.Unmarshal(t["_meta"], &meta); err != nil {
			continue
		}
		if ss, ok := meta["securitySchemes"]; ok {
			t["securitySchemes"] = ss
		}
	}
	var err error
	if result["tools"], err = json.Marshal(list); err != nil {
		return nil, fmt.Errorf("writing the listed tools: %w", err)
	}
	if msg["result"], err = json.Marshal(result); err != nil {
		return nil, fmt.Errorf("writing the tools/list result: %w", err)
	}
	return json.Marshal(msg)
}
