// Package fakemcp is a small MCP server on loopback (streamable HTTP, the
// official Go SDK) with a memory_search tool, so live tests can check that a
// real agent CLI reaches an MCP tool of a named server and passes back what
// it returned.
package fakemcp

import (
	"context"
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ResultPrefix starts every memory_search answer, so tests can find it in
// what the CLI sent back to the model.
const ResultPrefix = "osf-mcp-result: "

// SearchInput is memory_search's argument.
type SearchInput struct {
	Query string `json:"query" jsonschema:"what to look for"`
}

// Server is a running MCP server.
type Server struct {
	URL   string // http://127.0.0.1:port/mcp
	Token string // bearer token the client must send

	srv   *http.Server
	mu    sync.Mutex
	calls []SearchInput
}

// New starts a server requiring "Authorization: Bearer <token>".
func New(token string) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listening on loopback: %w", err)
	}
	s := &Server{URL: "http://" + ln.Addr().String() + "/mcp", Token: token}
	ms := mcp.NewServer(&mcp.Implementation{Name: "osfoundry-fake", Version: "1.0.0"}, nil)
	mcp.AddTool(ms, &mcp.Tool{Name: "memory_search", Description: "Search the user's memory."},
		func(_ context.Context, _ *mcp.CallToolRequest, in SearchInput) (*mcp.CallToolResult, any, error) {
			s.mu.Lock()
			s.calls = append(s.calls, in)
			s.mu.Unlock()
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: ResultPrefix + in.Query}}}, nil, nil
		})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return ms }, nil)
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		want := "Bearer " + s.Token
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), []byte(want)) != 1 {
			http.Error(w, "missing or wrong bearer token", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln) //nolint:errcheck // returns on Close
	return s, nil
}

// Start is New for tests, closed when the test ends.
func Start(tb testing.TB, token string) *Server {
	tb.Helper()
	s, err := New(token)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// Calls returns the memory_search calls received.
func (s *Server) Calls() []SearchInput {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]SearchInput(nil), s.calls...)
}

// Close stops the server.
func (s *Server) Close() error { return s.srv.Close() }
