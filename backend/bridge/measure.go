package bridge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/tools"
)

// Phase is one measured bridge operation.
type Phase struct {
	Name string
	P50  time.Duration
	P95  time.Duration
	N    int
}

// SeedNote says why the reference article's Python bridge has no row (python3 missing,
// say); empty when it ran.
type SeedNote string

// Measure times the bridge's life cycle n times per phase, each request on
// a new TCP connection (the bridge closes every connection after one
// response): start, handshake (initialize + notifications/initialized +
// tools/list), an allowed call, a refused call, a 401, and shutdown. Each
// answer is checked (status and content), so a bridge that answers fast
// but wrong fails the measurement.
//
// The "floor" phase sends the 401 request to a bare net/http server on
// the same machine that answers 401 with no logic at all: the cost of a
// new loopback connection, net/http and this client, interleaved with the
// bridge's requests so it sees the same load and garbage collections.
// exec must have memory_search registered; osfoundry-bench bridge passes an
// executor over a small in-memory index. store, when not nil, is an
// executor over the app's real stores (SQLite Notes index and audit log):
// its allowed memory_search is timed as "allowed-store", in the same loop,
// beside "seed-canned": the reference article's Python bridge (seed_bridge.py) answering
// the same call with a canned text on this machine. When it cannot run,
// the note says why and its row is left out.
func Measure(ctx context.Context, exec, store Executor, n int) ([]Phase, SeedNote, error) {
	if n < 1 {
		return nil, "", fmt.Errorf("measuring the bridge: n must be at least 1, got %d", n)
	}
	cfg := Config{Workspace: "bench", User: "bench", Channel: "bench", Allow: []string{"memory_search"}, Executor: exec, Source: "bridge:bench"}
	samples := map[string][]time.Duration{}
	add := func(k string, d time.Duration) { samples[k] = append(samples[k], d) }

	// Start and shutdown: a fresh bridge per sample, as per run.
	for range n {
		t0 := time.Now()
		b, err := Start(ctx, cfg)
		if err != nil {
			return nil, "", err
		}
		add("start", time.Since(t0))
		t0 = time.Now()
		b.Close()
		add("shutdown", time.Since(t0))
	}

	b, err := Start(ctx, cfg)
	if err != nil {
		return nil, "", err
	}
	defer b.Close()
	floor, err := startFloor(ctx)
	if err != nil {
		return nil, "", err
	}
	defer floor.Close()
	host := strings.TrimSuffix(strings.TrimPrefix(b.URL(), "http://"), "/mcp")
	good := "Bearer " + b.Token()
	phaseNames := []string{"allowed", "refused", "401", "floor"}
	var storeReq *rawReq
	if store != nil {
		scfg := cfg
		scfg.Executor = store
		sb, err := Start(ctx, scfg)
		if err != nil {
			return nil, "", err
		}
		defer sb.Close()
		storeReq = newRaw(strings.TrimSuffix(strings.TrimPrefix(sb.URL(), "http://"), "/mcp"), "Bearer "+sb.Token(),
			memSearchCall, 200, `"result"`)
		phaseNames = append(phaseNames, "allowed-store")
	}
	var note SeedNote
	var seedReq *rawReq
	if store != nil {
		seed, err := startSeed()
		if err != nil {
			note = SeedNote(err.Error())
		} else {
			defer seed.Close()
			seedReq = newRaw(seed.host, "Bearer "+seed.token,
				memSearchCall, 200, `Release checklist`)
			phaseNames = append(phaseNames, "seed-canned")
		}
	}
	bad := "Bearer " + strings.Repeat("0", 64)
	reqs := map[string]*rawReq{
		"initialize":  newRaw(host, good, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`, 200, `"protocolVersion":"2025-06-18"`),
		"initialized": newRaw(host, good, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, 202, ""),
		"list":        newRaw(host, good, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, 200, `"name":"memory_search"`),
		"allowed":     newRaw(host, good, memSearchCall, 200, `Release checklist`),
		"refused":     newRaw(host, good, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"execute_command","arguments":{"cmd":"ls"}}}`, 200, `"code":-32601`),
		"401":         newRaw(host, bad, `{"jsonrpc":"2.0","id":5,"method":"tools/list"}`, 401, "Unauthorized"),
		"floor":       newRaw(floor.Addr().String(), bad, `{"jsonrpc":"2.0","id":5,"method":"tools/list"}`, 401, ""),
	}
	if storeReq != nil {
		reqs["allowed-store"] = storeReq
	}
	if seedReq != nil {
		reqs["seed-canned"] = seedReq
	}
	for range n {
		t0 := time.Now()
		for _, k := range []string{"initialize", "initialized", "list"} {
			if err := reqs[k].do(); err != nil {
				return nil, "", fmt.Errorf("handshake %s: %w", k, err)
			}
		}
		add("handshake", time.Since(t0))
		for _, k := range phaseNames {
			t0 := time.Now()
			if err := reqs[k].do(); err != nil {
				return nil, "", fmt.Errorf("%s: %w", k, err)
			}
			add(k, time.Since(t0))
		}
	}
	var out []Phase
	for _, k := range []string{"start", "handshake", "allowed", "allowed-store", "seed-canned", "refused", "401", "shutdown", "floor"} {
		s := samples[k]
		if len(s) == 0 {
			continue
		}
		slices.Sort(s)
		out = append(out, Phase{Name: k, P50: s[len(s)/2], P95: s[min(len(s)-1, len(s)*95/100)], N: len(s)})
	}
	return out, note, nil
}

// memSearchCall is the allowed call every bridge in the bench answers.
const memSearchCall = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"memory_search","arguments":{"query":"release"}}}`

// startFloor serves 401 to everything, one request per connection, with
// the bridge's listener and server settings and none of its logic.
func startFloor(ctx context.Context) (net.Listener, error) {
	lc := net.ListenConfig{KeepAlive: -1}
	ln, err := lc.Listen(ctx, "tcp4", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("measuring the bridge: listening for the floor server: %w", err)
	}
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Connection", "close")
			w.WriteHeader(http.StatusUnauthorized)
		}),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
	}
	srv.SetKeepAlivesEnabled(false)
	go func() { _ = srv.Serve(ln) }() // ends when the caller closes ln
	return ln, nil
}

// rawReq is one prebuilt HTTP/1.1 request sent on a new connection: the
// lean client keeps the figures about the bridge, not a client library.
// It dials without TCP keep-alive probes (pointless for a one-request
// connection, and four setsockopt calls each), writes the request in one
// call, reads the response until the bridge closes the connection
// (Connection: close), then checks the status line, that the body is as
// long as Content-Length says and that it contains want. Closing its end
// of the connection is part of the measured time.
type rawReq struct {
	host   string // an IP literal and port: dialing it needs no lookup
	wire   []byte
	status []byte // "HTTP/1.1 200 "
	want   []byte
	buf    []byte
}

var rawDialer = net.Dialer{KeepAlive: -1}

func newRaw(host, auth, body string, status int, want string) *rawReq {
	w := "POST /mcp HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: " + auth +
		"\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: " +
		strconv.Itoa(len(body)) + "\r\n\r\n" + body
	return &rawReq{host: host, wire: []byte(w), status: []byte("HTTP/1.1 " + strconv.Itoa(status) + " "), want: []byte(want), buf: make([]byte, 64<<10)}
}

func (r *rawReq) do() error {
	c, err := rawDialer.Dial("tcp", r.host)
	if err != nil {
		return err
	}
	defer c.Close()
	if _, err := c.Write(r.wire); err != nil {
		return err
	}
	n := 0
	for {
		if n == len(r.buf) {
			return fmt.Errorf("response longer than %d bytes", len(r.buf))
		}
		m, err := c.Read(r.buf[n:])
		n += m
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	if err := checkResponse(r.buf[:n], r.status); err != nil {
		return err
	}
	if !bytes.Contains(r.buf[:n], r.want) {
		return fmt.Errorf("response %q does not contain %q", r.buf[:n], r.want)
	}
	return nil
}

// checkResponse verifies the status line and that the body has exactly
// Content-Length bytes (a bridge that closed early would fail here).
func checkResponse(resp, status []byte) error {
	if !bytes.HasPrefix(resp, status) {
		line, _, _ := bytes.Cut(resp, []byte("\r\n"))
		return fmt.Errorf("status line %q, want %q", line, bytes.TrimSpace(status))
	}
	head, body, ok := bytes.Cut(resp, []byte("\r\n\r\n"))
	if !ok {
		return errors.New("response without a header end")
	}
	want := -1
	for line := range bytes.SplitSeq(head, []byte("\r\n")) {
		if k, v, ok := bytes.Cut(line, []byte(":")); ok && strings.EqualFold(string(k), "Content-Length") {
			want, _ = strconv.Atoi(string(bytes.TrimSpace(v)))
		}
	}
	if want >= 0 && want != len(body) {
		return fmt.Errorf("body is %d bytes, Content-Length says %d", len(body), want)
	}
	return nil
}

// BenchMemory is a tiny in-memory memory_search index for the benchmark,
// so the figures measure the bridge rather than a search engine.
type BenchMemory []tools.MemoryHit

// MemorySearch implements tools.MemorySearcher by substring match.
func (m BenchMemory) MemorySearch(_ context.Context, _ string, q string, limit int) ([]tools.MemoryHit, error) {
	var out []tools.MemoryHit
	q = strings.ToLower(q)
	for _, h := range m {
		if len(out) < limit && strings.Contains(strings.ToLower(h.Title+" "+h.Snippet), q) {
			out = append(out, h)
		}
	}
	return out, nil
}
