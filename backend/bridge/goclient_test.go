package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/osfoundry/desktop/backend/tools"
)

func TestGoClient(t *testing.T) {
	for _, version := range []string{"", "2025-11-25", "2025-06-18", "2025-03-26"} {
		name := version
		if name == "" {
			name = "default-negotiation"
		}
		t.Run(name, func(t *testing.T) {
			r := newRig(t)
			b := r.start(t, "memory_search", "code_search", "web_search")
			var opts *mcp.ClientSessionOptions
			if version != "" {
				opts = &mcp.ClientSessionOptions{ProtocolVersion: version}
			}
			s := goClient(t, b, opts)
			ctx := context.Background()

			// tools/list: only the allowlist, minus tools the app lacks
			// (web_search is not configured here, so it is not offered).
			lt, err := s.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tl := range lt.Tools {
				names = append(names, tl.Name)
			}
			slices.Sort(names)
			if !slices.Equal(names, []string{"code_search", "memory_search"}) {
				t.Fatalf("tools/list = %v, want [code_search memory_search]", names)
			}

			// An allowed call returns data from the bound workspace even
			// when the arguments name another one.
			res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "memory_search",
				Arguments: map[string]any{"query": "release", "workspace": "ws-other"}})
			if err != nil {
				t.Fatal(err)
			}
			text := res.Content[0].(*mcp.TextContent).Text
			if res.IsError || !strings.Contains(text, "Release checklist") || strings.Contains(text, "secrets") {
				t.Fatalf("memory_search result = %q (isError %v), want the ws-home note only", text, res.IsError)
			}
			if got := r.mem.searchedIn(); !slices.Equal(got, []string{"ws-home"}) {
				t.Fatalf("searched workspaces = %v, want [ws-home]", got)
			}

			// A tool registered in the app but not on the list is refused
			// with -32601 and the exact message, and never runs.
			_, err = s.CallTool(ctx, &mcp.CallToolParams{Name: "secret_tool", Arguments: map[string]any{}})
			var werr *jsonrpc.Error
			if !errors.As(err, &werr) || werr.Code != -32601 || werr.Message != "tool 'secret_tool' is not available to this agent" {
				t.Fatalf("secret_tool error = %v, want -32601 \"tool 'secret_tool' is not available to this agent\"", err)
			}
			if n := r.forbidden.Load(); n != 0 {
				t.Fatalf("secret_tool handler ran %d times", n)
			}
			es := r.entries("secret_tool")
			if len(es) != 1 || es[0].Decision != tools.DecisionNotAvailable || es[0].Workspace != "ws-home" {
				t.Fatalf("secret_tool audit = %+v, want one not_available entry in ws-home", es)
			}
			ms := r.entries("memory_search")
			if len(ms) != 1 || ms[0].Decision != tools.DecisionRan || ms[0].Channel != "pipeline" || ms[0].Source != "bridge:test" {
				t.Fatalf("memory_search audit = %+v", ms)
			}
			var args map[string]any
			if err := json.Unmarshal(ms[0].Args, &args); err != nil || args["query"] != "release" {
				t.Fatalf("audited args = %s", ms[0].Args)
			}
		})
	}
}

// TestMiddlewareRefusal drives the SDK server directly (in-memory
// transport, no HTTP gate) so the middleware's own check is exercised.
func TestMiddlewareRefusal(t *testing.T) {
	r := newRig(t)
	h := &handler{cfg: Config{Workspace: "ws-home", Executor: r.exec, Source: "bridge:mem", MaxBody: DefaultMaxBody},
		base: context.Background(), allowed: []string{"memory_search"}}
	m, _ := r.exec.Lookup("memory_search")
	srv := newMCPServer(h, []tools.Meta{m})
	// The server is built with only allowed tools; add secret_tool behind
	// the gate's back to prove the middleware alone stops it.
	sm, _ := r.exec.Lookup("secret_tool")
	srv.AddTool(mcpTool(sm), forwardTo(h, "secret_tool"))

	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	lt, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(lt.Tools) != 1 || lt.Tools[0].Name != "memory_search" {
		t.Fatalf("tools/list through the middleware = %v", lt.Tools)
	}
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "secret_tool"})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != -32601 || werr.Message != "tool 'secret_tool' is not available to this agent" {
		t.Fatalf("error = %v, want the -32601 refusal with its message intact", err)
	}
	if r.forbidden.Load() != 0 {
		t.Fatal("secret_tool ran")
	}
}
