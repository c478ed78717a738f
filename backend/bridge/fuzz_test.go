package bridge

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
)

// FuzzBridgeHandler throws arbitrary bodies (and a flag picking the token
// and origin) at the request handler. Whatever arrives: no panic, the tool
// outside the allowlist never runs, searches stay in the bound workspace,
// and notifications stay 202 with an empty body.
func FuzzBridgeHandler(f *testing.F) {
	for _, s := range []string{initBody, listBody, secretBody, inventBody, memBody, notifyBody, idlessCall, notifWithID,
		"[" + secretBody + "," + memBody + "]", `[]`, `{}`, `null`, `{"jsonrpc":"2.0","id":1}`, `{"id":1e999,"method":"tools/call"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"memory_search","arguments":"x"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"secret_tool","name":"memory_search"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"memory_search","name":"secret_tool"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[1,2]}`, "\xff\xfe", ""} {
		f.Add([]byte(s), uint8(0))
	}
	f.Add([]byte(memBody), uint8(1))
	f.Add([]byte(memBody), uint8(2))

	r := newRig(f)
	b := r.start(f, "memory_search")
	h := b.srv.Handler
	host := hostOf(b)

	f.Fuzz(func(t *testing.T, body []byte, mode uint8) {
		req := httptest.NewRequest(http.MethodPost, "http://"+host+"/mcp", bytes.NewReader(body))
		req.Host = host
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		switch mode % 4 {
		case 0:
			req.Header.Set("Authorization", "Bearer "+b.Token())
		case 1:
			req.Header.Set("Authorization", "Bearer "+b.Token()[:63]+"x")
		case 2:
			req.Header.Set("Authorization", "Bearer "+b.Token())
			req.Header.Set("Origin", "https://evil.example")
		case 3:
			req.Header.Set("Authorization", "Bearer "+b.Token())
			req.Header.Set("Mcp-Protocol-Version", "2025-03-26")
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)

		if n := r.forbidden.Load(); n != 0 {
			t.Fatalf("secret_tool ran for body %q", body)
		}
		if ws := r.mem.searchedIn(); slices.ContainsFunc(ws, func(s string) bool { return s != "ws-home" }) {
			t.Fatalf("a search left the bound workspace: %v", ws)
		}
		switch mode % 4 {
		case 1:
			if w.Code != http.StatusUnauthorized {
				t.Fatalf("wrong token got %d", w.Code)
			}
		case 2:
			if w.Code != http.StatusForbidden {
				t.Fatalf("foreign origin got %d", w.Code)
			}
		}
		if w.Code == http.StatusAccepted && w.Body.Len() != 0 {
			t.Fatalf("202 with a body %q", w.Body.String())
		}
		if w.Header().Get("Connection") != "close" {
			t.Fatal("response without Connection: close")
		}
	})
}
