package notesres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestToolsListConformance: the top-level securitySchemes field the
// articles show is not in the MCP schema, so it must not stop real clients
// from listing the tools. The Go SDK client and the TypeScript SDK client
// each list the whole catalogue without an error.
func TestToolsListConformance(t *testing.T) {
	w := newWorld(t)
	want := len(w.svc.ToolNames())

	cl := mcp.NewClient(&mcp.Implementation{Name: "go-sdk-conformance", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(bg, 30*time.Second)
	defer cancel()
	s, err := cl.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: w.srv.ResourceURL(), DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatalf("Go SDK client connecting: %v", err)
	}
	defer s.Close()
	res, err := s.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("Go SDK client listing tools: %v", err)
	}
	if len(res.Tools) != want {
		t.Fatalf("Go SDK client listed %d tools, want %d", len(res.Tools), want)
	}
	for _, tl := range res.Tools {
		ss, _ := json.Marshal(tl.Meta["securitySchemes"])
		if tl.Meta["securitySchemes"] == nil {
			t.Errorf("%s reaches the Go client without securitySchemes: %s", tl.Name, ss)
		}
	}

	_, h := tsClient(t, w, "Create a new connection")
	if got, wantLine := h.send("LIST"), fmt.Sprintf("OK %d %d", want, want); got != wantLine {
		t.Fatalf("TypeScript SDK client: %s, want %s", got, wantLine)
	}
}
