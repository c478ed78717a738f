package bridge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// codexToolSearch fronts the fake model for Codex: Codex 0.169 always
// defers MCP tools behind its client-executed tool_search, so the first
// conversation turn answers with a tool_search_call (which Codex runs
// itself, loading the bridge's tools) and every other request goes to the
// scripted fake model unchanged.
type codexToolSearch struct {
	next  http.Handler
	query string
	done  atomic.Bool
	URL   string
}

func startCodexToolSearch(t *testing.T, next http.Handler, query string) *codexToolSearch {
	t.Helper()
	h := &codexToolSearch{next: next, query: query}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(ln) //nolint:errcheck // returns on Close
	t.Cleanup(func() { srv.Close() })
	h.URL = "http://" + ln.Addr().String()
	return h
}

func (h *codexToolSearch) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	var req struct {
		Tools []struct {
			Type string `json:"type"`
		} `json:"tools"`
	}
	offersSearch := false
	if r.URL.Path == "/v1/responses" && json.Unmarshal(body, &req) == nil {
		for _, tl := range req.Tools {
			offersSearch = offersSearch || tl.Type == "tool_search"
		}
	}
	if !offersSearch {
		h.next.ServeHTTP(w, r)
		return
	}
	if h.done.Load() {
		// Tools loaded by tool_search live in a namespace: the call names
		// the tool and its namespace separately.
		rec := &bufferedWriter{header: http.Header{}}
		h.next.ServeHTTP(rec, r)
		for k, v := range rec.header {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.status)
		w.Write(namespaceCalls(rec.buf.Bytes())) //nolint:errcheck // the client reads what it gets
		return
	}
	h.done.Store(true)
	item := map[string]any{"id": "ts_osf_1", "type": "tool_search_call", "status": "completed",
		"call_id": "call_osf_search", "execution": "client",
		"arguments": map[string]any{"query": h.query, "limit": 8}}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	seq := 0
	send := func(typ string, fields map[string]any) {
		fields["type"] = typ
		fields["sequence_number"] = seq
		seq++
		b, _ := json.Marshal(fields)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", typ, b)
	}
	resp := func(status string, output []any) map[string]any {
		return map[string]any{"id": "resp_osf_search", "object": "response", "status": status, "output": output,
			"usage": map[string]any{"input_tokens": 10, "input_tokens_details": map[string]any{"cached_tokens": 0},
				"output_tokens": 1, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 11}}
	}
	send("response.created", map[string]any{"response": resp("in_progress", []any{})})
	send("response.output_item.added", map[string]any{"output_index": 0, "item": item})
	send("response.output_item.done", map[string]any{"output_index": 0, "item": item})
	send("response.completed", map[string]any{"response": resp("completed", []any{item})})
}

type bufferedWriter struct {
	header http.Header
	status int
	buf    bytes.Buffer
}

func (b *bufferedWriter) Header() http.Header { return b.header }
func (b *bufferedWriter) WriteHeader(s int)   { b.status = s }
func (b *bufferedWriter) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.buf.Write(p)
}

// namespaceCalls rewrites function_call items named mcp__<server>__<tool>
// in an SSE stream into {namespace: mcp__<server>, name: <tool>}.
func namespaceCalls(stream []byte) []byte {
	lines := bytes.Split(stream, []byte("\n"))
	for i, l := range lines {
		data, ok := bytes.CutPrefix(l, []byte("data: "))
		if !ok {
			continue
		}
		var v any
		if json.Unmarshal(data, &v) != nil {
			continue
		}
		rewrite(v)
		b, _ := json.Marshal(v)
		lines[i] = append([]byte("data: "), b...)
	}
	return bytes.Join(lines, []byte("\n"))
}

func rewrite(v any) {
	switch x := v.(type) {
	case map[string]any:
		if x["type"] == "function_call" {
			if name, _ := x["name"].(string); strings.HasPrefix(name, "mcp__") {
				if i := strings.LastIndex(name, "__"); i > len("mcp_") {
					x["namespace"], x["name"] = name[:i], name[i+2:]
				}
			}
		}
		for _, c := range x {
			rewrite(c)
		}
	case []any:
		for _, c := range x {
			rewrite(c)
		}
	}
}
