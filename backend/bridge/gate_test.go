package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/tools"
)

const (
	initBody    = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	listBody    = `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`
	secretBody  = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"secret_tool","arguments":{}}}`
	inventBody  = `{"jsonrpc":"2.0","id":"x-7","method":"tools/call","params":{"name":"rm_rf_everything","arguments":{"path":"/"}}}`
	memBody     = `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"memory_search","arguments":{"query":"release","workspace":"ws-other"}}}`
	notifyBody  = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	idlessCall  = `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"secret_tool","arguments":{}}}`
	notifWithID = `{"jsonrpc":"2.0","id":9,"method":"notifications/cancelled","params":{"requestId":1}}`
)

func TestGate(t *testing.T) {
	r := newRig(t)
	b := r.start(t, "memory_search")
	u, _ := url.Parse(b.URL())
	port := u.Port()
	auth := "Bearer " + b.Token()
	ok := map[string]string{"Authorization": auth}
	with := func(kv ...string) map[string]string {
		m := map[string]string{"Authorization": auth}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	wrong := strings.Repeat("0", 64)

	cases := []struct {
		name     string
		url      string
		hdr      map[string]string
		body     string
		status   int
		contains string // in the body
		empty    bool   // body must be empty
	}{
		{"initialize", b.URL(), ok, initBody, 200, `"protocolVersion":"2025-06-18"`, false},
		{"tools/list", b.URL(), ok, listBody, 200, `"name":"memory_search"`, false},
		{"allowed call runs in the bound workspace", b.URL(), ok, memBody, 200, "Release checklist", false},
		{"no token", b.URL(), nil, initBody, 401, "Unauthorized", false},
		{"wrong token", b.URL(), map[string]string{"Authorization": "Bearer " + wrong}, initBody, 401, "Unauthorized", false},
		{"token without scheme", b.URL(), map[string]string{"Authorization": b.Token()}, initBody, 401, "Unauthorized", false},
		{"token prefix only", b.URL(), map[string]string{"Authorization": "Bearer " + b.Token()[:32]}, initBody, 401, "Unauthorized", false},
		{"scheme is case-insensitive", b.URL(), map[string]string{"Authorization": "bearer " + b.Token()}, initBody, 200, "protocolVersion", false},
		{"foreign origin", b.URL(), with("Origin", "https://evil.example"), initBody, 403, "cross-origin", false},
		{"null origin", b.URL(), with("Origin", "null"), initBody, 403, "cross-origin", false},
		{"loopback origin on another port", b.URL(), with("Origin", "http://127.0.0.1:1"), initBody, 403, "cross-origin", false},
		{"own loopback origin", b.URL(), with("Origin", "http://127.0.0.1:"+port), initBody, 200, "protocolVersion", false},
		{"non-loopback host", b.URL(), with("Host", "evil.example:"+port), initBody, 403, "loopback", false},
		{"rebinding host without port", b.URL(), with("Host", "evil.example"), initBody, 403, "loopback", false},
		{"localhost host", b.URL(), with("Host", "localhost:"+port), initBody, 200, "protocolVersion", false},
		{"other path", strings.Replace(b.URL(), "/mcp", "/admin", 1), ok, initBody, 404, "/mcp", false},
		{"malformed json", b.URL(), ok, `{"jsonrpc":"2.0","id":1,"method":`, 400, "-32700", false},
		{"not an object", b.URL(), ok, `"hello"`, 400, "-32700", false},
		{"object id", b.URL(), ok, `{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`, 400, "-32600", false},
		{"notification", b.URL(), ok, notifyBody, 202, "", true},
		{"notification with an id", b.URL(), ok, notifWithID, 202, "", true},
		{"id-less call is not run", b.URL(), ok, idlessCall, 202, "", true},
		{"client response", b.URL(), ok, `{"jsonrpc":"2.0","id":5,"result":{}}`, 202, "", true},
		{"refused tool", b.URL(), ok, secretBody, 200, `"message":"tool 'secret_tool' is not available to this agent"`, false},
		{"hallucinated tool", b.URL(), ok, inventBody, 200, `{"jsonrpc":"2.0","id":"x-7","error":{"code":-32601,"message":"tool 'rm_rf_everything' is not available to this agent"}}`, false},
		{"unknown method", b.URL(), ok, `{"jsonrpc":"2.0","id":6,"method":"admin/shutdown"}`, 400, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, h, body := post(t, c.url, c.hdr, c.body)
			if status != c.status {
				t.Fatalf("status = %d, want %d; body %q", status, c.status, body)
			}
			if !strings.Contains(body, c.contains) {
				t.Fatalf("body = %q, want it to contain %q", body, c.contains)
			}
			if c.empty && body != "" {
				t.Fatalf("body = %q, want empty", body)
			}
			if h.Get("Connection") != "close" {
				t.Fatalf("Connection = %q, want close", h.Get("Connection"))
			}
			if status == 401 && !strings.HasPrefix(h.Get("WWW-Authenticate"), "Bearer") {
				t.Fatalf("401 without a Bearer challenge: %v", h)
			}
		})
	}
	if n := r.forbidden.Load(); n != 0 {
		t.Fatalf("secret_tool ran %d times through the gate", n)
	}
	if got := r.mem.searchedIn(); len(got) != 1 || got[0] != "ws-home" {
		t.Fatalf("memory searches ran in %v, want one in ws-home", got)
	}
	for _, name := range []string{"rm_rf_everything", "secret_tool"} {
		es := r.entries(name)
		if len(es) != 1 || es[0].Decision != tools.DecisionNotAvailable {
			t.Fatalf("%s audit = %+v, want exactly one not_available entry (the id-less call is not audited because it is not a call)", name, es)
		}
	}
}

func TestGateMethodsAndSize(t *testing.T) {
	r := newRig(t)
	b, err := Start(context.Background(), Config{Workspace: "ws-home", Allow: []string{"memory_search"}, Executor: r.exec, MaxBody: 4096})
	must(t, err)
	defer b.Close()

	big := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"memory_search","arguments":{"query":"` + strings.Repeat("a", 5000) + `"}}}`
	status, _, body := post(t, b.URL(), map[string]string{"Authorization": "Bearer " + b.Token()}, big)
	if status != http.StatusRequestEntityTooLarge || !strings.Contains(body, "4096") {
		t.Fatalf("oversize: %d %q, want 413 naming the limit", status, body)
	}

	for _, m := range []string{http.MethodGet, http.MethodDelete, http.MethodPut} {
		req, _ := http.NewRequest(m, b.URL(), nil)
		req.Header.Set("Authorization", "Bearer "+b.Token())
		resp, err := http.DefaultClient.Do(req)
		must(t, err)
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "POST" {
			t.Fatalf("%s: %d Allow=%q, want 405 Allow=POST", m, resp.StatusCode, resp.Header.Get("Allow"))
		}
	}
	if len(r.mem.searchedIn()) != 0 {
		t.Fatal("the oversize call ran")
	}
}

func TestBatchGoesThroughMiddleware(t *testing.T) {
	r := newRig(t)
	b := r.start(t, "memory_search")
	hdr := map[string]string{"Authorization": "Bearer " + b.Token(), "Mcp-Protocol-Version": "2025-03-26"}
	status, _, body := post(t, b.URL(), hdr, "["+secretBody+","+memBody+"]")
	if status != 200 {
		t.Fatalf("batch: %d %q", status, body)
	}
	var out []struct {
		ID    int `json:"id"`
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal([]byte(body), &out); err != nil {
		t.Fatalf("batch reply %q: %v", body, err)
	}
	got := map[int]string{}
	for _, m := range out {
		if m.Error != nil {
			got[m.ID] = m.Error.Message
		} else {
			got[m.ID] = string(m.Result)
		}
	}
	if got[3] != "tool 'secret_tool' is not available to this agent" || !strings.Contains(got[4], "Release checklist") {
		t.Fatalf("batch replies = %v", got)
	}
	if r.forbidden.Load() != 0 {
		t.Fatal("secret_tool ran from a batch")
	}
}

func TestCloseRefusesConnections(t *testing.T) {
	for _, path := range []string{"close", "context", "with-error", "with-panic"} {
		t.Run(path, func(t *testing.T) {
			r := newRig(t)
			cfg := Config{Workspace: "ws-home", Allow: []string{"memory_search"}, Executor: r.exec}
			var addr string
			switch path {
			case "close":
				b, err := Start(context.Background(), cfg)
				must(t, err)
				addr = hostOf(b)
				b.Close()
				b.Close() // idempotent
			case "context":
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
				defer cancel()
				b, err := Start(ctx, cfg)
				must(t, err)
				addr = hostOf(b)
				select {
				case <-b.Done():
				case <-time.After(5 * time.Second):
					t.Fatal("the run's deadline passed and the bridge is still serving")
				}
			case "with-error":
				err := With(context.Background(), cfg, func(b *Bridge) error {
					addr = hostOf(b)
					return errors.New("run failed")
				})
				if err == nil || err.Error() != "run failed" {
					t.Fatalf("With returned %v", err)
				}
			case "with-panic":
				func() {
					defer func() { _ = recover() }()
					_ = With(context.Background(), cfg, func(b *Bridge) error {
						addr = hostOf(b)
						panic("run crashed")
					})
				}()
			}
			c, err := net.DialTimeout("tcp", addr, time.Second)
			if err == nil {
				c.Close()
				t.Fatalf("connect to %s after the run succeeded", addr)
			}
			if !errors.Is(err, syscall.ECONNREFUSED) {
				t.Fatalf("connect after the run: %v, want connection refused", err)
			}
		})
	}
}

func TestCloseEndsInFlightApproval(t *testing.T) {
	q := tools.NewApprovalQueue(nil, nil)
	exec := tools.NewExecutor(tools.Options{Approver: q})
	must(t, exec.Register(tools.Tool{
		Meta:    tools.Meta{Name: "ask_first", InputSchema: json.RawMessage(`{"type":"object"}`), NeedsApproval: true},
		Handler: func(context.Context, tools.Call) (tools.Result, error) { return tools.Result{Text: "ran"}, nil },
	}))
	b, err := Start(context.Background(), Config{Workspace: "w", Allow: []string{"ask_first"}, Executor: exec, Watched: true})
	must(t, err)
	done := make(chan error, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, b.URL(), strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask_first","arguments":{}}}`))
		req.Header.Set("Authorization", "Bearer "+b.Token())
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	deadline := time.Now().Add(5 * time.Second)
	for len(q.Pending()) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the call never asked for approval")
		}
		time.Sleep(time.Millisecond)
	}
	b.Close()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("closing the bridge left the call waiting")
	}
	for len(q.Pending()) != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the approval request outlived the bridge")
		}
		time.Sleep(time.Millisecond)
	}
}

func TestStartRefusesForbiddenTools(t *testing.T) {
	r := newRig(t)
	for _, name := range []string{"read_file", "write_file", "execute_command"} {
		_, err := Start(context.Background(), Config{Workspace: "w", Allow: []string{"memory_search", name}, Executor: r.exec})
		if !errors.Is(err, ErrForbiddenTool) {
			t.Fatalf("allow %s: err = %v, want ErrForbiddenTool", name, err)
		}
	}
	if _, err := Start(context.Background(), Config{Allow: []string{"memory_search"}, Executor: r.exec}); err == nil {
		t.Fatal("a bridge without a bound workspace started")
	}
}

func TestTokensAreFreshPerRun(t *testing.T) {
	r := newRig(t)
	a, c := r.start(t), r.start(t)
	if len(a.Token()) != 64 || strings.Trim(a.Token(), "0123456789abcdef") != "" {
		t.Fatalf("token %q is not 64 hex characters", a.Token())
	}
	if a.Token() == c.Token() || a.URL() == c.URL() {
		t.Fatal("two runs share a token or a port")
	}
	// One run's token does not open another run's bridge.
	status, _, _ := post(t, c.URL(), map[string]string{"Authorization": "Bearer " + a.Token()}, initBody)
	if status != 401 {
		t.Fatalf("cross-run token: %d, want 401", status)
	}
}

func hostOf(b *Bridge) string {
	u, _ := url.Parse(b.URL())
	return u.Host
}

// TestConnectionCloseOnTheWire reads the raw response: Go's HTTP client
// hides hop-by-hop headers, a raw socket does not.
func TestConnectionCloseOnTheWire(t *testing.T) {
	r := newRig(t)
	b := r.start(t, "memory_search")
	for _, auth := range []string{"Bearer " + b.Token(), "Bearer nope"} {
		c, err := net.Dial("tcp", hostOf(b))
		must(t, err)
		req := "POST /mcp HTTP/1.1\r\nHost: " + hostOf(b) + "\r\nAuthorization: " + auth +
			"\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: " +
			strconv.Itoa(len(listBody)) + "\r\n\r\n" + listBody
		_, err = c.Write([]byte(req))
		must(t, err)
		must(t, c.SetReadDeadline(time.Now().Add(5*time.Second)))
		raw, err := io.ReadAll(c) // returns only because the server closes
		c.Close()
		must(t, err)
		head, _, _ := strings.Cut(string(raw), "\r\n\r\n")
		if !strings.Contains(head, "\r\nConnection: close") {
			t.Fatalf("response head without Connection: close:\n%s", head)
		}
	}
}
