package bridge

import (
	"context"
	"net/http"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/osfoundry/desktop/backend/tools"
)

// ProtocolVersions are the MCP versions the bridge negotiates — the ones
// its tests exercise. 2026-07-28 is left out on purpose: under it the SDK
// turns a -32601 refusal into HTTP 404, which clients read as "endpoint
// gone" instead of "this tool is not available".
var ProtocolVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// newMCPHandler builds the run's MCP server: only allowed tools are added,
// and a receiving middleware re-applies the allowlist to tools/list and
// tools/call (the HTTP gate handles single messages; batches and anything
// else reaching the SDK meet this check).
func newMCPHandler(h *handler, srv *mcp.Server) http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{
		Stateless:           true,
		JSONResponse:        true,
		MaxRequestBodyBytes: h.cfg.MaxBody,
	})
}

func newMCPServer(h *handler, metas []tools.Meta) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "osfoundry", Title: "osFoundry", Version: "1"}, &mcp.ServerOptions{
		SupportedProtocolVersions: ProtocolVersions,
		// The list is fixed for the run's life: no listChanged, no logging.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
		Instructions: "osFoundry app tools for this run. The workspace is fixed by the app; arguments naming another workspace are ignored.",
	})
	for _, m := range metas {
		srv.AddTool(mcpTool(m), forwardTo(h, m.Name))
	}
	srv.AddReceivingMiddleware(gate(h, h.allowed))
	return srv
}

func mcpTool(m tools.Meta) *mcp.Tool {
	destructive := m.Destructive
	return &mcp.Tool{
		Name:        m.Name,
		Description: m.Description,
		InputSchema: m.InputSchema,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: m.ReadOnly, DestructiveHint: &destructive},
	}
}

// forwardTo hands one call to the executor with the run's bound identity.
// Results go out as text (the executor's JSON results are already JSON
// text, which every client reads).
func forwardTo(h *handler, name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		// The SDK detaches tool handlers from the HTTP request under the
		// protocol versions we speak; tie the call to the bridge instead so
		// closing the run ends a call still waiting (for an approval, say).
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		defer context.AfterFunc(h.base, cancel)()
		res, err := h.cfg.Executor.Execute(ctx, h.call(name, req.Params.Arguments))
		if err != nil {
			// Internal failures reach the model as a readable tool error
			// rather than a protocol error that some clients retry blindly.
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "tool " + name + " failed: " + err.Error()}}}, nil
		}
		return &mcp.CallToolResult{IsError: res.IsError, Content: []mcp.Content{&mcp.TextContent{Text: res.Text}}}, nil
	}
}

func gate(h *handler, allowed []string) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			switch method {
			case "tools/call":
				if ctr, ok := req.(*mcp.CallToolRequest); ok && !slices.Contains(allowed, ctr.Params.Name) {
					h.cfg.Executor.RecordRefusal(ctx, h.call(ctr.Params.Name, ctr.Params.Arguments), tools.DecisionNotAvailable, "not on this run's allowlist")
					return nil, refusal{&jsonrpc.Error{Code: codeMethodNotFound, Message: notAvailable(ctr.Params.Name)}}
				}
			case "tools/list":
				res, err := next(ctx, method, req)
				if lr, ok := res.(*mcp.ListToolsResult); ok && err == nil {
					kept := make([]*mcp.Tool, 0, len(lr.Tools))
					for _, t := range lr.Tools {
						if slices.Contains(allowed, t.Name) {
							kept = append(kept, t)
						}
					}
					lr.Tools = kept
				}
				return res, err
			}
			return next(ctx, method, req)
		}
	}
}

// refusal carries a -32601 error through the SDK unchanged. The SDK
// rewrites any error that errors.Is-matches "method not found" (it matches
// on the code) to `method not found: "tools/call"`; Is reporting false
// avoids that, and As still yields the wire error so code and message go
// out as written.
type refusal struct{ w *jsonrpc.Error }

func (r refusal) Error() string { return r.w.Message }
func (r refusal) Is(error) bool { return false }
func (r refusal) As(target any) bool {
	if p, ok := target.(**jsonrpc.Error); ok {
		*p = r.w
		return true
	}
	return false
}
