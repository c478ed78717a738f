package agentcli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"
)

// namespaceProxy sits between Codex and the fake model. Codex 0.169 offers
// an MCP server's tools as one Responses "namespace" tool (mcp__osfoundry)
// and accepts a call only as {"name": "memory_search", "namespace":
// "mcp__osfoundry"}; the fake model scripts calls by their flat name. The
// proxy rewrites function_call items named mcp__<server>__<tool> in the
// SSE stream into that namespaced form.
func namespaceProxy(t testing.TB, target string) string {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.FlushInterval = -1
	rp.ModifyResponse = func(resp *http.Response) error {
		if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			return nil
		}
		pr, pw := io.Pipe()
		body := resp.Body
		go func() {
			defer body.Close()
			sc := bufio.NewScanner(body)
			sc.Buffer(make([]byte, 1<<20), 16<<20)
			for sc.Scan() {
				line := sc.Bytes()
				if data, ok := bytes.CutPrefix(line, []byte("data: ")); ok {
					line = append([]byte("data: "), namespaceCalls(data)...)
				}
				if _, err := pw.Write(append(line, '\n')); err != nil {
					return
				}
			}
			pw.CloseWithError(sc.Err())
		}()
		resp.Body = pr
		resp.Header.Del("Content-Length")
		return nil
	}
	srv := httptest.NewServer(rp)
	t.Cleanup(srv.Close)
	return srv.URL
}

func namespaceCalls(data []byte) []byte {
	var ev map[string]any
	if json.Unmarshal(data, &ev) != nil {
		return data
	}
	fix := func(v any) {
		it, _ := v.(map[string]any)
		name, _ := it["name"].(string)
		if it["type"] != "function_call" || !strings.HasPrefix(name, "mcp__") {
			return
		}
		rest := strings.TrimPrefix(name, "mcp__")
		server, tool, ok := strings.Cut(rest, "__")
		if ok {
			it["namespace"], it["name"] = "mcp__"+server, tool
		}
	}
	fix(ev["item"])
	if r, ok := ev["response"].(map[string]any); ok {
		if out, ok := r["output"].([]any); ok {
			for _, it := range out {
				fix(it)
			}
		}
	}
	b, err := json.Marshal(ev)
	if err != nil {
		return data
	}
	return b
}
