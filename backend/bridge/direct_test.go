package bridge

import (
	"bytes"
	"maps"
	"net/http"
	"net/http/httptest"
	"testing"
)

// sameAsSDK sends body through the direct path and, when that path
// answers, through the SDK's stateless handler too, and fails unless both
// answers are identical. It reports whether the direct path answered.
func sameAsSDK(t *testing.T, h *handler, hdr http.Header, body []byte) bool {
	t.Helper()
	newReq := func() *http.Request {
		r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", bytes.NewReader(body))
		r.Header = hdr.Clone()
		return r
	}
	direct := httptest.NewRecorder()
	if !h.serveDirect(direct, newReq(), body) {
		if direct.Code != http.StatusOK || direct.Body.Len() != 0 || len(direct.Header()) != 0 {
			t.Fatalf("declined but wrote: %d %v %q", direct.Code, direct.Header(), direct.Body)
		}
		return false
	}
	sdk := httptest.NewRecorder()
	h.forward(sdk, newReq(), body)
	if direct.Code != sdk.Code || !maps.EqualFunc(direct.Header(), sdk.Header(), func(a, b []string) bool { return equalStrings(a, b) }) ||
		!bytes.Equal(direct.Body.Bytes(), sdk.Body.Bytes()) {
		t.Fatalf("body %s\ndirect: %d %v %s\nSDK:    %d %v %s", body, direct.Code, direct.Header(), direct.Body, sdk.Code, sdk.Header(), sdk.Body)
	}
	return true
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func plainHeader(kv ...string) http.Header {
	h := http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json, text/event-stream"}}
	for i := 0; i < len(kv); i += 2 {
		if kv[i+1] == "" {
			h.Del(kv[i])
			continue
		}
		h.Set(kv[i], kv[i+1])
	}
	return h
}

func TestDirectMatchesSDK(t *testing.T) {
	r := newRig(t)
	b := r.start(t, "memory_search", "code_search")
	h := b.srv.Handler.(*handler)
	v := "Mcp-Protocol-Version"
	cases := []struct {
		name   string
		hdr    http.Header
		body   string
		direct bool // the direct path answers (else it defers to the SDK)
	}{
		{"initialize", plainHeader(), initBody, true},
		{"initialize, newest version", plainHeader(), `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`, true},
		{"initialize, unknown version", plainHeader(), `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"1999-01-01","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`, true},
		{"initialize, version not offered", plainHeader(), `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2026-07-28","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`, true},
		{"initialize, string id", plainHeader(), `{"jsonrpc":"2.0","id":"a-1","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}}}`, true},
		{"initialize, bad params", plainHeader(), `{"jsonrpc":"2.0","id":1,"method":"initialize","params":[1]}`, true},
		{"initialize without params", plainHeader(), `{"jsonrpc":"2.0","id":1,"method":"initialize"}`, false},
		{"tools/list", plainHeader(v, "2025-06-18"), listBody, true},
		{"tools/list without params", plainHeader(v, "2025-11-25"), `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, true},
		{"tools/list, null params", plainHeader(), `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":null}`, false},
		{"tools/list, bad cursor", plainHeader(), `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"zzz"}}`, true},
		{"ping", plainHeader(v, "2025-03-26"), `{"jsonrpc":"2.0","id":7,"method":"ping"}`, true},
		{"allowed call", plainHeader(v, "2025-06-18"), memBody, true},
		{"allowed call, fractional id", plainHeader(), `{"jsonrpc":"2.0","id":4.5,"method":"tools/call","params":{"name":"memory_search","arguments":{"query":"release"}}}`, true},
		{"allowed call, bad arguments", plainHeader(), `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"memory_search","arguments":{"query":7}}}`, true},
		{"allowed call, arguments not an object", plainHeader(), `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"memory_search","arguments":"x"}}`, true},
		{"allowed call, escaped text", plainHeader(), `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"memory_search","arguments":{"query":"re\u006cease \"x\""}}}`, true},
		{"allowed call, progress token", plainHeader(), `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"_meta":{"progressToken":"p1"},"name":"memory_search","arguments":{"query":"release"}}}`, true},
		{"call naming no tool", plainHeader(), `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"arguments":{}}}`, true},
		{"call without params", plainHeader(), `{"jsonrpc":"2.0","id":4,"method":"tools/call"}`, false},
		{"per-request protocol in _meta", plainHeader(), `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"memory_search","arguments":{}}}`, false},
		{"escaped per-request protocol in _meta", plainHeader(), `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"\u005fmeta":{"io.modelcontextprotocol\/protocolVersion":"2025-06-18"},"name":"memory_search","arguments":{}}}`, false},
		{"upper-case keys", plainHeader(), `{"jsonrpc":"2.0","ID":4,"Method":"tools/call","params":{"name":"memory_search","arguments":{}}}`, false},
		{"wrong version tag", plainHeader(), `{"jsonrpc":"1.0","id":4,"method":"tools/list"}`, false},
		{"other method", plainHeader(), `{"jsonrpc":"2.0","id":4,"method":"resources/list"}`, false},
		{"unsupported header version", plainHeader(v, "2024-01-01"), listBody, false},
		{"newest header version", plainHeader(v, "2026-07-28"), listBody, false},
		{"Accept without event-stream", plainHeader("Accept", "application/json"), listBody, false},
		{"Accept wildcard", plainHeader("Accept", "*/*"), listBody, true},
		{"no Accept", plainHeader("Accept", ""), listBody, false},
		{"Content-Type with charset", plainHeader("Content-Type", "application/json; charset=utf-8"), listBody, true},
		{"Content-Type text", plainHeader("Content-Type", "text/plain"), listBody, false},
		{"Last-Event-ID", plainHeader("Last-Event-ID", "x_1"), listBody, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := sameAsSDK(t, h, c.hdr, []byte(c.body)); got != c.direct {
				t.Fatalf("direct path answered = %v, want %v", got, c.direct)
			}
		})
	}
	t.Run("Accept over two header lines", func(t *testing.T) {
		hdr := plainHeader()
		hdr["Accept"] = []string{"application/json", "text/event-stream"}
		if !sameAsSDK(t, h, hdr, []byte(listBody)) {
			t.Fatal("two Accept lines that together take both types were declined")
		}
	})
	if n := r.forbidden.Load(); n != 0 {
		t.Fatalf("secret_tool ran %d times", n)
	}
}

// FuzzDirectMatchesSDK holds the direct path to the SDK handler's answer
// for arbitrary bodies and protocol-version headers.
func FuzzDirectMatchesSDK(f *testing.F) {
	for _, s := range []string{initBody, listBody, memBody, `{"jsonrpc":"2.0","id":7,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"_meta":{"progressToken":1},"name":"memory_search","arguments":{"query":"a\tb"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"memory_search","name":"code_search"}}`,
		`{"jsonrpc":"2.0","id":1,"id":"x","method":"tools/list","method":"ping"}`} {
		f.Add([]byte(s), "")
		f.Add([]byte(s), "2025-06-18")
	}
	r := newRig(f)
	b := r.start(f, "memory_search")
	h := b.srv.Handler.(*handler)
	f.Fuzz(func(t *testing.T, body []byte, version string) {
		hdr := plainHeader()
		if version != "" {
			hdr.Set("Mcp-Protocol-Version", version)
		}
		sameAsSDK(t, h, hdr, body)
		if n := r.forbidden.Load(); n != 0 {
			t.Fatalf("secret_tool ran for %q", body)
		}
	})
}
