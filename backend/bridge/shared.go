package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The direct path's calls after initialize (tools/call, tools/list, ping)
// go to a long-lived SDK session, one per protocol version, instead of a
// session built and torn down per request: starting one cost goroutines
// and a connection per call, about a sixth of an allowed call's time in
// the bridge (in-process: 230–268 µs → 192–208 µs per call). The session is still the SDK's, in the state its
// stateless handler synthesises (initialized, at the header's version);
// each request carries its own headers, and its id is swapped for one the
// session has not seen, so clients reusing ids never meet. A client that
// hangs up mid-call cancels its call, as closing a one-shot session did.

// shared is one long-lived session and the requests in flight on it.
type shared struct {
	ss   *mcp.ServerSession
	in   chan *jsonrpc.Request
	done chan struct{}
	once sync.Once

	mu   sync.Mutex
	next int64
	wait map[int64]waiter
}

// waiter is a request in flight: its own id and where its answer goes.
type waiter struct {
	id  jsonrpc.ID
	out chan []byte
}

// errNotSent: the session ended before the request reached it, so the
// request can go elsewhere without running twice.
var errNotSent = errors.New("the MCP session ended before the request reached it")

// session returns the shared session for version, starting it the first
// time; it fails when the bridge is closing or the SDK refuses the session.
func (h *handler) session(version string) (*shared, error) {
	h.smu.Lock()
	defer h.smu.Unlock()
	if err := h.base.Err(); err != nil {
		return nil, err
	}
	if s, ok := h.sessions[version]; ok {
		return s, nil
	}
	s := &shared{in: make(chan *jsonrpc.Request), done: make(chan struct{}), wait: map[int64]waiter{}}
	state := &mcp.ServerSessionState{
		InitializeParams:  &mcp.InitializeParams{ProtocolVersion: version},
		InitializedParams: &mcp.InitializedParams{},
		LogLevel:          "info",
	}
	ss, err := h.srv.Connect(h.base, s, &mcp.ServerSessionOptions{State: state})
	if err != nil {
		return nil, err
	}
	s.ss = ss
	if h.sessions == nil {
		h.sessions = map[string]*shared{}
		context.AfterFunc(h.base, h.closeSessions)
	}
	h.sessions[version] = s
	return s, nil
}

// dropSession forgets s, which ended, so the next request starts another.
func (h *handler) dropSession(version string, s *shared) {
	h.smu.Lock()
	defer h.smu.Unlock()
	if h.sessions[version] == s {
		delete(h.sessions, version)
	}
}

// closeSessions ends every shared session when the bridge closes.
func (h *handler) closeSessions() {
	h.smu.Lock()
	defer h.smu.Unlock()
	for _, s := range h.sessions {
		s.ss.Close()
	}
}

// call sends req through the session and returns its encoded answer. It
// fails with errNotSent when the session ended before taking the request,
// with ctx's error when the client hung up first (the call is then
// cancelled), and with errLost when the session ended after taking it.
func (s *shared) call(ctx context.Context, req *jsonrpc.Request) ([]byte, error) {
	out := make(chan []byte, 1)
	s.mu.Lock()
	s.next++
	n := s.next
	s.wait[n] = waiter{id: req.ID, out: out}
	s.mu.Unlock()
	req.ID, _ = jsonrpc.MakeID(float64(n)) // a number is always a valid id
	select {
	case s.in <- req:
	case <-ctx.Done():
		s.forget(n)
		return nil, ctx.Err()
	case <-s.done:
		s.forget(n)
		return nil, errNotSent
	}
	select {
	case data := <-out:
		return data, nil // nil when the SDK's answer could not be encoded
	case <-ctx.Done():
		if s.forget(n) {
			params, _ := json.Marshal(map[string]any{"requestId": n, "reason": "the client closed the connection"})
			select {
			case s.in <- &jsonrpc.Request{Method: "notifications/cancelled", Params: params}:
			case <-s.done:
			}
		}
		return nil, ctx.Err()
	case <-s.done:
		return nil, errLost
	}
}

// errLost: the session ended while a request it took was running.
var errLost = errors.New("the MCP session ended during the call")

// forget drops request n; it reports whether n was still waiting.
func (s *shared) forget(n int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.wait[n]
	delete(s.wait, n)
	return ok
}

func (s *shared) Connect(context.Context) (mcp.Connection, error) { return s, nil }

func (s *shared) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case req := <-s.in:
		return req, nil
	case <-s.done:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Write delivers a response to the request waiting for it, under that
// request's own id. Anything else — a server request, a notification, an
// answer nobody waits for any more — is refused as a stateless request's
// transport refuses it.
func (s *shared) Write(_ context.Context, msg jsonrpc.Message) error {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		return errRejected
	}
	n, ok := resp.ID.Raw().(int64)
	if !ok {
		return errRejected
	}
	s.mu.Lock()
	w, ok := s.wait[n]
	delete(s.wait, n)
	s.mu.Unlock()
	if !ok {
		return errRejected
	}
	out := *resp
	out.ID = w.id
	data, err := jsonrpc.EncodeMessage(&out)
	w.out <- data // buffered for the one answer; nil when encoding failed
	return err
}

func (s *shared) Close() error {
	s.once.Do(func() { close(s.done) })
	return nil
}

func (s *shared) SessionID() string { return "" }
