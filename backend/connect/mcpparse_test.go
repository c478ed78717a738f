package connect

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// The gate and the SDK must see the same request: bodies that two JSON
// readers could read differently are refused before either acts on them.
func TestGateRefusesAmbiguousBodies(t *testing.T) {
	e := newEnv(t)
	post := func(body string) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, e.srv.BaseURL()+ResourcePath, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2025-06-18")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	call := `"params":{"name":"read_note","arguments":{"note_id":"note-a1"}}`
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	for _, c := range []struct{ name, body string }{
		{"method in two cases", `{"jsonrpc":"2.0","id":1,"method":"tools/call","METHOD":"initialize",` + call + `}`},
		{"method twice", `{"jsonrpc":"2.0","id":1,"method":"initialize","method":"tools/call",` + call + `}`},
		{"params in two cases", `{"jsonrpc":"2.0","id":1,"method":"tools/call",` + call + `,"Params":{"name":"list_granted_resources"}}`},
		{"tool name in two cases", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_note","NAME":"list_granted_resources"}}`},
		{"trailing object", init + `{"jsonrpc":"2.0","id":2,"method":"tools/call",` + call + `}`},
		{"trailing bytes", init + `x`},
		{"not an object", `"tools/call"`},
	} {
		st, body := post(c.body)
		if st != http.StatusBadRequest || !strings.Contains(body, `"code":-32700`) && !strings.Contains(body, `"code":-32600`) {
			t.Errorf("%s: %d %s, want 400 with a JSON-RPC error", c.name, st, body)
		}
	}
	// The plain request still works, with trailing whitespace.
	if st, body := post(init + "\n"); st != http.StatusOK || !strings.Contains(body, `"serverInfo"`) {
		t.Fatalf("initialize: %d %s", st, body)
	}
}
