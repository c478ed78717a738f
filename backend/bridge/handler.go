package bridge

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/osfoundry/desktop/backend/tools"
)

// handler is the HTTP gate in front of the SDK: everything a request must
// satisfy before any MCP code sees it, plus the answers that need no MCP
// session at all (notifications, refused tool names).
type handler struct {
	cfg     Config
	base    context.Context // ends when the bridge closes
	token   []byte
	allowed []string
	hosts   []string
	origins []string
	srv     *mcp.Server  // the run's SDK server, built once at Start
	mcp     http.Handler // the SDK's stateless HTTP handler over srv

	smu      sync.Mutex
	sessions map[string]*shared // the direct path's sessions by protocol version
}

// peek is the part of a JSON-RPC message the gate looks at.
type peek struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Connection", "close")
	// DNS rebinding: a page on evil.example resolving to 127.0.0.1 still
	// sends its own name as Host.
	if !slices.Contains(h.hosts, strings.ToLower(r.Host)) {
		http.Error(w, "Forbidden: the bridge answers only on its own loopback address", http.StatusForbidden)
		return
	}
	// A browser always sends Origin on a cross-origin POST; agents' HTTP
	// clients send none. The SDK checks Host but not Origin.
	if o := r.Header.Values("Origin"); len(o) > 0 && (len(o) > 1 || !slices.Contains(h.origins, strings.ToLower(o[0]))) {
		http.Error(w, "Forbidden: cross-origin requests are not accepted", http.StatusForbidden)
		return
	}
	if !h.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="osfoundry-bridge"`)
		http.Error(w, "Unauthorized: send this run's bearer token", http.StatusUnauthorized)
		return
	}
	if r.URL.Path != "/mcp" {
		http.Error(w, "Not Found: the MCP endpoint is /mcp", http.StatusNotFound)
		return
	}
	if r.Method != http.MethodPost {
		// Stateless: no server-to-client stream (GET) and no session (DELETE).
		w.Header().Set("Allow", "POST")
		http.Error(w, "Method Not Allowed: POST JSON-RPC messages to /mcp", http.StatusMethodNotAllowed)
		return
	}
	body, err := readBody(w, r, h.cfg.MaxBody)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			http.Error(w, "Request Entity Too Large: the bridge accepts at most "+itoa(mbe.Limit)+" bytes", http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "Bad Request: reading the body failed", http.StatusBadRequest)
		return
	}
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '[' {
		// Batches (protocol 2025-03-26) go to the SDK, whose middleware
		// applies the same allowlist to each element.
		h.forward(w, r, body)
		return
	}
	var m peek
	if err := json.Unmarshal(body, &m); err != nil {
		writeRPCError(w, http.StatusBadRequest, nil, -32700, "Parse error: the body must be one JSON-RPC message")
		return
	}
	// Codex's MCP client drops the transport on "200 {}" to a notification:
	// id-less messages and notifications get 202 with an empty body. In a
	// stateless run there is no session for them to affect, and a client's
	// reply to a server request cannot occur (the bridge sends none).
	if !hasID(m.ID) || strings.HasPrefix(m.Method, "notifications/") || m.Method == "" {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if !validID(m.ID) {
		writeRPCError(w, http.StatusBadRequest, nil, -32600, "Invalid Request: id must be a string or a number")
		return
	}
	if m.Method == "tools/call" {
		var p struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		// encoding/json matches keys case-insensitively and the SDK may not,
		// so this early answer is an optimisation, not the authority: the
		// SDK's middleware checks the name it will actually dispatch.
		if json.Unmarshal(m.Params, &p) == nil && !slices.Contains(h.allowed, p.Name) {
			// Refused here, before any session exists: the executor never
			// sees a name the run was not given (hallucinated or injected).
			h.refuse(r, p.Name, p.Arguments)
			writeRPCError(w, http.StatusOK, m.ID, codeMethodNotFound, notAvailable(p.Name))
			return
		}
	}
	if !h.serveDirect(w, r, body) {
		h.forward(w, r, body)
	}
}

func (h *handler) forward(w http.ResponseWriter, r *http.Request, body []byte) {
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	h.mcp.ServeHTTP(w, r)
}

func (h *handler) refuse(r *http.Request, name string, args json.RawMessage) {
	h.cfg.Executor.RecordRefusal(r.Context(), h.call(name, args), tools.DecisionNotAvailable, "not on this run's allowlist")
}

// call builds the executor call from the bound run, never the request.
func (h *handler) call(name string, args json.RawMessage) tools.Call {
	c := h.cfg
	return tools.Call{
		Workspace: c.Workspace, User: c.User, Channel: c.Channel,
		Tool: name, Args: args, Watched: c.Watched, PlanMode: c.PlanMode,
		Source: c.Source, Folder: c.Folder, Project: c.Project,
	}
}

func (h *handler) authorized(r *http.Request) bool {
	v := r.Header.Values("Authorization")
	if len(v) != 1 || len(v[0]) < 7 || !strings.EqualFold(v[0][:7], "bearer ") {
		return false
	}
	got := strings.TrimSpace(v[0][7:])
	return subtle.ConstantTimeCompare([]byte(got), h.token) == 1
}

func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	rd := http.MaxBytesReader(w, r.Body, limit)
	n := r.ContentLength
	if n < 0 || n > limit {
		n = 512
	}
	buf := bytes.NewBuffer(make([]byte, 0, n+1))
	_, err := buf.ReadFrom(rd)
	return buf.Bytes(), err
}

func hasID(id json.RawMessage) bool {
	return len(id) > 0 && string(id) != "null"
}

func validID(id json.RawMessage) bool {
	c := id[0]
	return c == '"' || c == '-' || (c >= '0' && c <= '9')
}

const codeMethodNotFound = -32601

func notAvailable(name string) string {
	return "tool '" + name + "' is not available to this agent"
}

// writeRPCError writes one JSON-RPC error response. id is echoed raw (it
// was parsed and checked to be a string or number); nil writes null.
func writeRPCError(w http.ResponseWriter, status int, id json.RawMessage, code int, msg string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
