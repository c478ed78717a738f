package connect

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/osfoundry/desktop/backend/tools"
)

const maxMCPBody = 4 << 20

type grantKey struct{}

// serveMCP is the gate in front of the SDK's stateless handler:
// initialize and tools/list are public; tools/call needs a bearer token
// for this resource and the tool's scope. The SDK's RequireBearerToken
// cannot send error="insufficient_scope" nor check a per-tool scope, so
// the gate does both and hands the verified grant to the SDK.
func (s *Server) serveMCP(w http.ResponseWriter, r *http.Request) {
	if o := r.Header.Get("Origin"); o != "" && !s.originOK(r, o) {
		http.Error(w, fmt.Sprintf("Forbidden: Origin %q may not call this server", o), http.StatusForbidden)
		return
	}
	if r.Method != http.MethodPost {
		// No SSE stream over GET; stateless, so nothing to DELETE either.
		w.Header().Set("Allow", "POST")
		http.Error(w, "Method Not Allowed: this endpoint takes JSON-RPC over POST only", http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxMCPBody))
	if err != nil {
		http.Error(w, "request body too large or unreadable", http.StatusRequestEntityTooLarge)
		return
	}
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '[' {
		// Batches were removed from MCP; refusing them keeps a tools/call
		// from hiding behind a public initialize in one request.
		rpcError(w, http.StatusBadRequest, nil, -32600, "JSON-RPC batches are not supported; send one request per POST")
		return
	}
	p, err := parseRPC(body)
	if errors.Is(err, errInvalid) {
		rpcError(w, http.StatusBadRequest, nil, -32600, "Invalid request: "+strings.TrimPrefix(err.Error(), errInvalid.Error()+": "))
		return
	}
	if err != nil {
		rpcError(w, http.StatusBadRequest, nil, -32700, "Parse error: "+strings.TrimPrefix(err.Error(), errAmbiguous.Error()+": "))
		return
	}
	// The SDK reads the gate's own canonical copy, never the raw bytes.
	r.Body = io.NopCloser(bytes.NewReader(p.Body))
	r.ContentLength = int64(len(p.Body))
	if p.Method == "tools/list" {
		s.serveToolsList(w, r)
		return
	}
	if p.Method != "tools/call" {
		s.mcp.ServeHTTP(w, r)
		return
	}
	resource := s.base(r) + ResourcePath
	tok, ok := bearer(r)
	if !ok {
		// No credentials at all: RFC 6750 §3.1 says no error code then.
		s.challenge(w, r, p.ID, http.StatusUnauthorized, "", "", "", "Authentication required")
		return
	}
	g, err := s.svc.VerifyToken(r.Context(), tok, resource)
	if errors.Is(err, ErrInvalidToken) {
		s.challenge(w, r, p.ID, http.StatusUnauthorized, "invalid_token", "Connect osFoundry to continue", "", "Authentication required")
		return
	}
	if err != nil {
		w.Header().Set("Retry-After", "5")
		rpcError(w, http.StatusServiceUnavailable, p.ID, -32603, "The server cannot check the token right now; try again in a few seconds.")
		return
	}
	if need := s.svc.ScopeFor(p.Tool); need != "" && !slices.Contains(g.Scopes, need) {
		s.svc.logActivity(r.Context(), g.ConnectionID, p.Tool, "denied: "+DenyInsufficient, need)
		// scope= names what to ask for: the scopes held plus the missing
		// one, so a host that requests exactly this loses nothing.
		want := strings.Join(append(slices.Clone(g.Scopes), need), " ")
		s.challenge(w, r, p.ID, http.StatusForbidden, DenyInsufficient, "This tool needs "+need, want,
			"Insufficient scope: this tool needs "+need)
		return
	}
	r = r.WithContext(context.WithValue(r.Context(), grantKey{}, &g))
	s.withGrant().ServeHTTP(w, r)
}

// withGrant passes the gate's grant to tool handlers through the SDK's
// own TokenInfo plumbing (RequestExtra.TokenInfo).
func (s *Server) withGrant() http.Handler {
	verify := func(ctx context.Context, _ string, _ *http.Request) (*auth.TokenInfo, error) {
		g, _ := ctx.Value(grantKey{}).(*Grant)
		if g == nil {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{Scopes: g.Scopes, UserID: g.ConnectionID, Extra: map[string]any{"grant": g}}, nil
	}
	return auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(s.mcp)
}

func bearer(r *http.Request) (string, bool) {
	f := strings.Fields(r.Header.Get("Authorization"))
	if len(f) != 2 || !strings.EqualFold(f[0], "bearer") {
		return "", false
	}
	return f[1], true
}

// challenge answers 401/403 with WWW-Authenticate and, in the JSON-RPC
// body, an isError result carrying the same challenge in _meta, so hosts
// that only read the body can start sign-in too.
func (s *Server) challenge(w http.ResponseWriter, r *http.Request, id json.RawMessage, status int, code, desc, scope, text string) {
	h := fmt.Sprintf(`Bearer resource_metadata=%q`, s.base(r)+prmPath+ResourcePath)
	if code != "" {
		h += fmt.Sprintf(`, error=%q, error_description=%q`, code, desc)
	}
	if scope != "" {
		h += fmt.Sprintf(`, scope=%q`, scope)
	}
	w.Header().Set("WWW-Authenticate", h)
	res := map[string]any{
		"isError": true,
		"content": []map[string]string{{"type": "text", "text": text}},
		"_meta":   map[string]any{"mcp/www_authenticate": []string{h}},
	}
	writeRPC(w, status, id, "result", res)
}

func rpcError(w http.ResponseWriter, status int, id json.RawMessage, code int, msg string) {
	writeRPC(w, status, id, "error", map[string]any{"code": code, "message": msg})
}

func writeRPC(w http.ResponseWriter, status int, id json.RawMessage, key string, v any) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": id, key: v})
}

// mcpHandler runs one tool for the SDK: the access check against current
// state, the activity line, then the tool.
func (s *Service) mcpHandler(name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var g *Grant
		if req.Extra != nil && req.Extra.TokenInfo != nil {
			g, _ = req.Extra.TokenInfo.Extra["grant"].(*Grant)
		}
		if g == nil {
			return textResult(tools.ErrorResult("Authentication required")), nil
		}
		res, err := s.Call(ctx, *g, name, req.Params.Arguments)
		if err != nil {
			return nil, err
		}
		return textResult(res), nil
	}
}

func textResult(r tools.Result) *mcp.CallToolResult {
	out := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: r.Text}}, IsError: r.IsError}
	if r.Structured != nil {
		// structuredContent must be a JSON object.
		if b, err := json.Marshal(r.Structured); err == nil && len(b) > 0 && b[0] == '{' {
			out.StructuredContent = json.RawMessage(b)
		}
	}
	return out
}

// Call runs tool for grant after checking access against the current
// state, and records the call under Recent activity. Refusals are tool
// results with IsError; the error return is for failures to run at all.
func (s *Service) Call(ctx context.Context, g Grant, tool string, args json.RawMessage) (tools.Result, error) {
	a, err := s.check(ctx, g, tool, args)
	var d *Denial
	if errors.As(err, &d) {
		s.logActivity(ctx, g.ConnectionID, tool, "denied: "+d.Code, "")
		return tools.Result{Text: d.Code + ": " + d.Text, Structured: map[string]string{"error": d.Code, "message": d.Text}, IsError: true}, nil
	}
	if err != nil {
		s.logActivity(ctx, g.ConnectionID, tool, "error", err.Error())
		return tools.Result{}, err
	}
	detail := ""
	if a.target.Kind != "" {
		detail = a.target.Kind + " " + a.target.ID
	}
	e := s.cat.tools[tool]
	var res tools.Result
	if e.builtin != nil {
		res, err = e.builtin(ctx, a, args)
	} else {
		res, err = e.Handler(ctx, tools.Call{Workspace: a.workspace, User: a.approver, Tool: tool, Args: args,
			Source: "connect:" + g.ConnectionID})
	}
	decision := DecisionAllowed
	if err != nil {
		decision = "error"
	} else if res.IsError {
		decision = decisionToolError
	}
	if lerr := s.logActivity(ctx, g.ConnectionID, tool, decision, detail); lerr != nil && err == nil {
		err = lerr
	}
	return res, err
}
