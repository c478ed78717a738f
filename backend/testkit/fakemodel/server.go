// Package fakemodel is a scripted model API on loopback for running the real
// agent CLIs offline: it speaks the Anthropic Messages API (Claude Code) and
// the OpenAI Responses API (Codex), streams scripted turns and records every
// request so tests can assert what the CLI actually sent.
package fakemodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// Call is one tool call the model makes.
type Call struct {
	// Name as the CLI offered it: "Bash", "Write", "mcp__osfoundry__memory_search",
	// "exec_command", "apply_patch", …
	Name string
	// Args is the JSON arguments object (function tools).
	Args json.RawMessage
	// Input is the free-form input of an OpenAI custom tool (Codex's
	// apply_patch takes the patch text itself); when set, Args is ignored and
	// the call is streamed as a custom_tool_call.
	Input string
	// Namespace is sent with an OpenAI function call (Codex groups deferred
	// MCP tools by namespace).
	Namespace string
	// Search makes an OpenAI client-side tool_search_call with Args as its
	// arguments (Codex exposes deferred MCP tools only after a search).
	Search bool
}

// Turn is one scripted model response.
type Turn struct {
	Text  string
	Calls []Call
	// Delay is slept after the stream has started and before the first
	// content, so the CLI shows its working spinner. A cancelled request
	// (the user interrupted) ends the wait early.
	Delay time.Duration
	// Hold, when non-nil, is waited on like Delay: the turn stays "working"
	// until the test closes the channel or the CLI gives up.
	Hold <-chan struct{}
	// Stall is slept after the text has streamed and before the message
	// ends: the answer is visible while the CLI still works (interrupts).
	Stall time.Duration
}

// Request is one recorded HTTP request.
type Request struct {
	Time   time.Time
	Method string
	Path   string
	Query  string
	Header http.Header
	Body   []byte
	// API is "anthropic", "openai" (Responses), "chat" (Chat Completions),
	// "gemini", or "" for anything else.
	API string
	// Side is true for requests that do not consume the script (titles,
	// quota checks, topic detection, …).
	Side bool
	// Title is true for a request of the app's Titling role (its prompt
	// holds TitleMarker): it is answered from the title script, never from
	// the conversation's, and is not a main request.
	Title bool
	// Turn is the index of the scripted turn that answered, or -1.
	Turn int
}

// TitleMarker is the fixed text of the Titling role's prompt
// (backend/roles), by which a request that names a chat is told apart from
// the chat's own turns. The app titles a chat in the background after its
// first answer, so that request can arrive before or after the chat's next
// turn: answered from the conversation's script, it would take a turn
// scripted for the chat.
const TitleMarker = "title of at most six words"

// DefaultTitle answers a titling request when no title was scripted.
const DefaultTitle = "Fake chat title"

// JSON decodes the body into a generic map (nil when it is not JSON).
func (r Request) JSON() map[string]any {
	var m map[string]any
	if json.Unmarshal(r.Body, &m) != nil {
		return nil
	}
	return m
}

// Server is a running fake model API.
type Server struct {
	// URL is the base URL, e.g. http://127.0.0.1:41234 (no trailing slash).
	URL string

	ln    net.Listener
	srv   *http.Server
	mu    sync.Mutex
	cond  *sync.Cond
	turns []Turn
	next  int
	reqs  []Request
	ids   int
	// titles is the titling requests' own script (PushTitle).
	titles    []Turn
	nextTitle int
	// Fallback answers main requests once the script is used up.
	Fallback Turn
	// TitleFallback answers titling requests once their script is used up.
	TitleFallback Turn
	// Refuse lists model names the server answers as the real APIs answer
	// a model that does not exist (404, not_found_error / model_not_found).
	// Set it before the CLI starts.
	Refuse []string
}

func (s *Server) refuses(model string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, m := range s.Refuse {
		if m == model {
			return true
		}
	}
	return false
}

// New starts a server on 127.0.0.1 with an OS-chosen port.
func New(turns ...Turn) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listening on loopback: %w", err)
	}
	s := &Server{
		URL:      "http://" + ln.Addr().String(),
		ln:       ln,
		turns:    turns,
		Fallback: Turn{Text: "Done."},
		// A title the app accepts, so every chat is named without a spec
		// having to script it.
		TitleFallback: Turn{Text: DefaultTitle},
	}
	s.cond = sync.NewCond(&s.mu)
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln) //nolint:errcheck // returns on Close
	return s, nil
}

// Start is New for tests: it fails the test on error and closes the server
// when the test ends.
func Start(tb testing.TB, turns ...Turn) *Server {
	tb.Helper()
	s, err := New(turns...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// Close stops the server and ends streams still open.
func (s *Server) Close() error {
	return s.srv.Close()
}

// Push appends turns to the script (for tests that decide the next answer
// after seeing what the CLI did).
func (s *Server) Push(turns ...Turn) {
	s.mu.Lock()
	s.turns = append(s.turns, turns...)
	s.mu.Unlock()
}

// PushTitle appends answers for the Titling role's requests; they are taken
// in order by titling requests only, whatever the conversation's script
// holds.
func (s *Server) PushTitle(turns ...Turn) {
	s.mu.Lock()
	s.titles = append(s.titles, turns...)
	s.mu.Unlock()
}

// TitleRequests returns the Titling role's requests so far.
func (s *Server) TitleRequests() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Title {
			out = append(out, r)
		}
	}
	return out
}

// Requests returns a copy of every request recorded so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// MainRequests returns the requests that consumed (or asked for) a turn of
// the conversation's script (titling requests are not among them).
func (s *Server) MainRequests() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.isMain() {
			out = append(out, r)
		}
	}
	return out
}

// Used is how many scripted turns have been handed out.
func (s *Server) Used() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.next
}

// WaitMain blocks until n main requests arrived or the timeout passed, and
// reports whether they did.
func (s *Server) WaitMain(n int, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	t := time.AfterFunc(timeout, func() { s.mu.Lock(); s.cond.Broadcast(); s.mu.Unlock() })
	defer t.Stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.countMain() < n {
		if time.Now().After(deadline) {
			return false
		}
		s.cond.Wait()
	}
	return true
}

func (s *Server) countMain() int {
	n := 0
	for _, r := range s.reqs {
		if r.isMain() {
			n++
		}
	}
	return n
}

func (r Request) isMain() bool { return r.API != "" && !r.Side && !r.Title }

func (s *Server) newID(prefix string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ids++
	return fmt.Sprintf("%s_fake%06d", prefix, s.ids)
}

// Reset drops the scripted turns no request has taken yet, so answers
// one test pushed and never used cannot land on the next test's requests.
func (s *Server) Reset() {
	s.mu.Lock()
	s.turns = s.turns[:s.next]
	s.titles = s.titles[:s.nextTitle]
	s.mu.Unlock()
}

// record stores a request; for main requests it also takes the next turn,
// for titling requests the next title.
func (s *Server) record(r Request) (Turn, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	turn, idx := Turn{}, -1
	r.Title = r.API != "" && !r.Side && bytes.Contains(r.Body, []byte(TitleMarker))
	switch {
	case r.Title:
		turn = s.TitleFallback
		if s.nextTitle < len(s.titles) {
			turn = s.titles[s.nextTitle]
			s.nextTitle++
		}
	case r.API != "" && !r.Side:
		if s.next < len(s.turns) {
			turn, idx = s.turns[s.next], s.next
			s.next++
		} else {
			turn = s.Fallback
		}
	}
	r.Turn = idx
	s.reqs = append(s.reqs, r)
	s.cond.Broadcast()
	return turn, idx
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		http.Error(w, "reading body: "+err.Error(), http.StatusBadRequest)
		return
	}
	req := Request{Time: time.Now(), Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery,
		Header: r.Header.Clone(), Body: body}
	path := strings.TrimSuffix(r.URL.Path, "/")
	if _, method, ok := geminiPath(path); ok && r.Method == http.MethodPost {
		req.API = "gemini"
		req.Side = geminiSide(method)
		if method == "countTokens" {
			req.API, req.Side = "", false
		}
		turn, _ := s.record(req)
		s.serveGemini(w, r, body, method, turn, req.Side)
		return
	}
	switch {
	case r.Method == http.MethodPost && path == "/v1/messages":
		req.API = "anthropic"
		req.Side = anthropicSide(body)
		turn, _ := s.record(req)
		s.serveAnthropic(w, r, body, turn, req.Side)
	case r.Method == http.MethodPost && path == "/v1/messages/count_tokens":
		s.record(req)
		writeJSON(w, map[string]any{"input_tokens": approxTokens(body)})
	case path == "/api/hello" || path == "" || path == "/v1":
		s.record(req)
		w.WriteHeader(http.StatusOK)
	case r.Method == http.MethodPost && path == "/v1/responses":
		req.API = "openai"
		req.Side = openaiSide(body)
		turn, _ := s.record(req)
		s.serveOpenAI(w, r, body, turn, req.Side)
	case r.Method == http.MethodPost && (path == "/v1/chat/completions" || path == "/chat/completions"):
		req.API = "chat"
		req.Side = chatSide(body)
		turn, _ := s.record(req)
		s.serveChat(w, r, body, turn, req.Side)
	case r.Method == http.MethodGet && path == "/v1/models":
		s.record(req)
		writeJSON(w, map[string]any{"object": "list", "data": []any{}, "models": []any{}})
	default:
		s.record(req)
		http.Error(w, "fakemodel: no such endpoint "+r.Method+" "+r.URL.Path, http.StatusNotFound)
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v) //nolint:errcheck // client gone
}

// approxTokens is a stable stand-in for a token count: 1 token per 4 bytes.
func approxTokens(body []byte) int { return len(body)/4 + 1 }

// sse writes server-sent events and flushes each one.
type sse struct {
	w http.ResponseWriter
	f http.Flusher
}

func newSSE(w http.ResponseWriter) *sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	f, _ := w.(http.Flusher)
	return &sse{w: w, f: f}
}

func (e *sse) send(event string, data any) {
	b, _ := json.Marshal(data)
	fmt.Fprintf(e.w, "event: %s\ndata: %s\n\n", event, b)
	if e.f != nil {
		e.f.Flush()
	}
}

// stall sleeps for the turn's Stall; false if the client went away.
func stall(r *http.Request, t Turn) bool {
	return wait(r, Turn{Delay: t.Stall})
}

// wait sleeps for the turn's Delay/Hold; false if the client went away.
func wait(r *http.Request, t Turn) bool {
	if t.Delay > 0 {
		select {
		case <-time.After(t.Delay):
		case <-r.Context().Done():
			return false
		}
	}
	if t.Hold != nil {
		select {
		case <-t.Hold:
		case <-r.Context().Done():
			return false
		}
	}
	return true
}

// chunks splits text into a few pieces so the CLI sees a real token stream.
func chunks(s string) []string {
	var out []string
	for len(s) > 0 {
		n := strings.IndexByte(s[min(len(s), 1):], ' ')
		if n < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:n+1])
		s = s[n+1:]
	}
	return out
}
