package bridge

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/osfoundry/desktop/backend/tools"
)

// fakeMemory is a MemorySearcher over a fixed set of notes per workspace,
// recording which workspace each search ran in.
type fakeMemory struct {
	mu         sync.Mutex
	workspaces []string
	notes      map[string][]tools.MemoryHit
}

func (f *fakeMemory) MemorySearch(_ context.Context, ws, q string, limit int) ([]tools.MemoryHit, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.workspaces = append(f.workspaces, ws)
	var out []tools.MemoryHit
	for _, h := range f.notes[ws] {
		if strings.Contains(strings.ToLower(h.Title+" "+h.Snippet), strings.ToLower(q)) && len(out) < limit {
			out = append(out, h)
		}
	}
	return out, nil
}

func (f *fakeMemory) searchedIn() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.workspaces...)
}

// rig is one executor with a memory tool, a counted tool that is never on
// the allowlist, and an in-memory audit.
type rig struct {
	exec      *tools.Executor
	audit     *tools.MemoryAuditor
	mem       *fakeMemory
	forbidden atomic.Int64 // calls that reached secret_tool's handler
}

func newRig(t testing.TB) *rig {
	t.Helper()
	r := &rig{audit: &tools.MemoryAuditor{}}
	r.mem = &fakeMemory{notes: map[string][]tools.MemoryHit{
		"ws-home":  {{Kind: "note", ID: "n1", Title: "Release checklist", Snippet: "tag, build, notarize", UpdatedAt: time.Unix(1700000000, 0).UTC()}},
		"ws-other": {{Kind: "note", ID: "n9", Title: "Release secrets", Snippet: "other workspace only"}},
	}}
	r.exec = tools.NewExecutor(tools.Options{Auditor: r.audit})
	must(t, r.exec.Register(tools.MemorySearchTool(r.mem)))
	must(t, r.exec.Register(tools.CodeSearchTool()))
	must(t, r.exec.Register(tools.Tool{
		Meta: tools.Meta{Name: "secret_tool", Description: "registered in the app, never allowed here",
			InputSchema: json.RawMessage(`{"type":"object"}`), ReadOnly: true, Unattended: true},
		Handler: func(context.Context, tools.Call) (tools.Result, error) {
			r.forbidden.Add(1)
			return tools.Result{Text: "leaked"}, nil
		},
	}))
	return r
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func (r *rig) start(t testing.TB, allow ...string) *Bridge {
	t.Helper()
	b, err := Start(context.Background(), Config{
		Workspace: "ws-home", User: "u1", Channel: "pipeline", Allow: allow,
		Executor: r.exec, Source: "bridge:test",
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// entries returns the audit entries for one tool.
func (r *rig) entries(tool string) []tools.AuditEntry {
	var out []tools.AuditEntry
	for _, e := range r.audit.Entries() {
		if e.Tool == tool {
			out = append(out, e)
		}
	}
	return out
}

type bearer struct {
	token string
	base  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

// goClient connects the official Go SDK client with the bridge's token.
func goClient(t testing.TB, b *Bridge, opts *mcp.ClientSessionOptions) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "go-test-client", Version: "1"}, nil)
	tr := &mcp.StreamableClientTransport{
		Endpoint:             b.URL(),
		HTTPClient:           &http.Client{Transport: bearer{b.Token(), http.DefaultTransport}},
		DisableStandaloneSSE: true,
		MaxRetries:           -1,
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := c.Connect(ctx, tr, opts)
	if err != nil {
		t.Fatalf("connecting the Go SDK client: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// post sends one raw request and returns status, headers and body.
func post(t testing.TB, url string, hdr map[string]string, body string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var sb strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		sb.Write(buf[:n])
		if err != nil {
			break
		}
	}
	// Go's client consumes the hop-by-hop Connection header into resp.Close;
	// put it back so callers can assert on what was on the wire.
	if resp.Close {
		resp.Header.Set("Connection", "close")
	}
	return resp.StatusCode, resp.Header, sb.String()
}
