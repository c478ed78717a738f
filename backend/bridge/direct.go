package bridge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The direct path hands a single, plain request (initialize, ping,
// tools/list, tools/call) to the run's SDK server over an in-process
// connection (shared.go), instead of through mcp.StreamableHTTPHandler.
//
// Why: in stateless mode the SDK's HTTP transport parses each body six
// times before the session sees it (twice as a batch, twice as a message,
// once more for _meta), and every parse allocates a fresh 32 KB decoder
// buffer; with the session's own parses that was ~310 KB of garbage per
// call, and the garbage collector it drove was the largest cost of an
// allowed call and of the p95 of every request. The session — method
// dispatch, initialize, tools/list, tools/call, the allowlist middleware,
// the error mapping — is still the SDK's, in the state the SDK's stateless
// handler gives a session (synthesised from the MCP-Protocol-Version
// header; initialize gets a fresh session of its own).
//
// Anything the direct path does not reproduce byte for byte goes to the
// SDK handler instead: batches, other methods, missing params, headers the
// SDK would reject or treat specially, and the per-request protocol
// version in _meta (2026-07-28 and later). TestDirectMatchesSDK and
// FuzzDirectMatchesSDK hold the two paths to the same answers.

// Protocol version the SDK assumes when a request carries no
// MCP-Protocol-Version header (the last version without one).
const defaultHeaderVersion = "2025-03-26"

// serveDirect answers r through the SDK session for its protocol version
// (a one-shot session for initialize) and reports true, or reports false
// without writing anything when the request needs the SDK's HTTP handler.
func (h *handler) serveDirect(w http.ResponseWriter, r *http.Request, body []byte) bool {
	version, ok := directHeaders(r)
	if !ok {
		return false
	}
	req, ok := directRequest(body)
	if !ok {
		return false
	}
	req.Extra = &mcp.RequestExtra{Header: r.Header}
	var data []byte
	var err error
	if req.Method == "initialize" {
		data, err = h.initialize(r.Context(), req)
	} else {
		s, serr := h.session(version)
		if serr != nil {
			return false // the SDK's handler answers, as it would have
		}
		if data, err = s.call(r.Context(), req); errors.Is(err, errNotSent) {
			h.dropSession(version, s) // a session that ended is replaced
			return false
		}
	}
	if r.Context().Err() != nil {
		return true // the client hung up or the bridge closed: nobody to answer
	}
	if err != nil || data == nil {
		http.Error(w, "Internal Server Error: the MCP session gave no answer", http.StatusInternalServerError)
		return true
	}
	hd := w.Header()
	hd["Cache-Control"] = []string{"no-cache, no-transform"}
	hd["Content-Type"] = []string{"application/json"}
	_, _ = w.Write(data)
	return true
}

// initialize answers an initialize request through a one-shot session, as
// the SDK's stateless handler does: a session of its own, not initialized.
func (h *handler) initialize(ctx context.Context, req *jsonrpc.Request) ([]byte, error) {
	state := &mcp.ServerSessionState{InitializedParams: &mcp.InitializedParams{}, LogLevel: "info"}
	conn := &oneShot{req: req, id: req.ID, out: make(chan []byte, 1), done: make(chan struct{})}
	ss, err := h.srv.Connect(ctx, conn, &mcp.ServerSessionOptions{State: state})
	if err != nil {
		return nil, err
	}
	defer ss.Close()
	select {
	case data := <-conn.out:
		return data, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// directHeaders reports the request's protocol version when its headers
// are ones the SDK's stateless handler accepts without special treatment.
func directHeaders(r *http.Request) (string, bool) {
	hd := r.Header
	if ct := hd.Get("Content-Type"); ct != "application/json" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			return "", false
		}
	}
	if !acceptsBoth(hd.Values("Accept")) || len(hd.Values("Last-Event-ID")) > 0 {
		return "", false
	}
	v := hd.Get("Mcp-Protocol-Version")
	if v == "" {
		return defaultHeaderVersion, true
	}
	return v, slices.Contains(ProtocolVersions, v)
}

// acceptsBoth is the SDK's Accept rule: the client must take both
// application/json and text/event-stream (wildcards count).
func acceptsBoth(values []string) bool {
	var js, sse bool
	for _, v := range values {
		for raw := range strings.SplitSeq(v, ",") {
			base, _, _ := strings.Cut(raw, ";")
			switch strings.ToLower(strings.TrimSpace(base)) {
			case "application/json", "application/*":
				js = true
			case "text/event-stream", "text/*":
				sse = true
			case "*/*":
				js, sse = true, true
			}
		}
	}
	return js && sse
}

// directRequest decodes body as one JSON-RPC call the direct path serves.
// Keys are matched exactly, as the SDK's decoder does (encoding/json's
// struct decoding would also take "METHOD" for "method").
func directRequest(body []byte) (*jsonrpc.Request, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil {
		return nil, false
	}
	var version, method string
	if json.Unmarshal(m["jsonrpc"], &version) != nil || version != "2.0" ||
		json.Unmarshal(m["method"], &method) != nil {
		return nil, false
	}
	var rawID any
	if json.Unmarshal(m["id"], &rawID) != nil {
		return nil, false
	}
	id, err := jsonrpc.MakeID(rawID)
	if err != nil || !id.IsValid() {
		return nil, false
	}
	params := m["params"]
	switch method {
	case "initialize", "tools/call":
		if len(params) == 0 || string(params) == "null" {
			return nil, false
		}
	case "tools/list", "ping":
		if string(params) == "null" {
			return nil, false
		}
	default:
		return nil, false
	}
	if hasMetaVersion(params) {
		return nil, false
	}
	return &jsonrpc.Request{ID: id, Method: method, Params: params}, true
}

// metaVersionKey in a request's _meta selects the per-request protocol
// (2026-07-28 and later), which the SDK handler validates against headers.
const metaVersionKey = "io.modelcontextprotocol/protocolVersion"

// hasMetaVersion reports whether params may carry metaVersionKey in _meta.
// Without a backslash the key can only appear literally; with one it may
// be escaped, so the params are decoded to look.
func hasMetaVersion(params json.RawMessage) bool {
	if bytes.Contains(params, []byte(metaVersionKey)) {
		return true
	}
	if bytes.IndexByte(params, '\\') < 0 {
		return false
	}
	var p map[string]json.RawMessage
	if json.Unmarshal(params, &p) != nil {
		return true
	}
	var meta map[string]json.RawMessage
	if raw, ok := p["_meta"]; ok && json.Unmarshal(raw, &meta) == nil {
		_, ok = meta[metaVersionKey]
		return ok
	}
	return false
}

// oneShot is both the mcp.Transport and the mcp.Connection of one
// request: Read yields the request once, Write takes its response.
type oneShot struct {
	req  *jsonrpc.Request
	id   jsonrpc.ID
	out  chan []byte
	once sync.Once
	done chan struct{}
	read bool // guarded by the SDK: Read is called from one goroutine
}

func (c *oneShot) Connect(context.Context) (mcp.Connection, error) { return c, nil }

func (c *oneShot) Read(ctx context.Context) (jsonrpc.Message, error) {
	if !c.read {
		c.read = true
		return c.req, nil
	}
	select {
	case <-c.done:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// errRejected matches the SDK's "rejected by transport" error (code
// -32005): the SDK returns it to the caller instead of treating the
// connection as broken. A stateless request has nowhere to send server
// requests or notifications, as in the SDK's own stateless transport.
var errRejected = &jsonrpc.Error{Code: -32005, Message: "rejected by transport: a stateless bridge request carries only its response"}

func (c *oneShot) Write(_ context.Context, msg jsonrpc.Message) error {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok || resp.ID != c.id {
		return errRejected
	}
	data, err := jsonrpc.EncodeMessage(resp)
	if err != nil {
		return err
	}
	select {
	case c.out <- data:
		return nil
	default:
		return errRejected
	}
}

func (c *oneShot) Close() error {
	c.once.Do(func() { close(c.done) })
	return nil
}

func (c *oneShot) SessionID() string { return "" }
