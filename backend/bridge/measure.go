package bridge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
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

// Measure times the bridge's life cycle n times per phase, each request on
// a new TCP connection (the bridge closes every connection after one
// response): start, handshake (initialize + notifications/initialized +
// tools/list), an allowed call, a refused call, a 401, and shutdown.
// exec must have memory_search registered; osfoundry bench bridge passes an
// executor over a small in-memory index.
func Measure(ctx context.Context, exec Executor, n int) ([]Phase, error) {
	if n < 1 {
		return nil, fmt.Errorf("measuring the bridge: n must be at least 1, got %d", n)
	}
	cfg := Config{Workspace: "bench", User: "bench", Channel: "bench", Allow: []string{"memory_search"}, Executor: exec, Source: "bridge:bench"}
	samples := map[string][]time.Duration{}
	add := func(k string, d time.Duration) { samples[k] = append(samples[k], d) }

	// Start and shutdown: a fresh bridge per sample, as per run.
	for range n {
		t0 := time.Now()
		b, err := Start(ctx, cfg)
		if err != nil {
			return nil, err
		}
		add("start", time.Since(t0))
		t0 = time.Now()
		b.Close()
		add("shutdown", time.Since(t0))
	}

	b, err := Start(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	host := strings.TrimSuffix(strings.TrimPrefix(b.URL(), "http://"), "/mcp")
	good := "Bearer " + b.Token()
	bad := "Bearer " + strings.Repeat("0", 64)
	reqs := map[string]*rawReq{
		"initialize":  newRaw(host, good, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`, 200),
		"initialized": newRaw(host, good, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, 202),
		"list":        newRaw(host, good, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, 200),
		"allowed":     newRaw(host, good, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"memory_search","arguments":{"query":"release"}}}`, 200),
		"refused":     newRaw(host, good, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"execute_command","arguments":{"cmd":"ls"}}}`, 200),
		"401":         newRaw(host, bad, `{"jsonrpc":"2.0","id":5,"method":"tools/list"}`, 401),
	}
	for range n {
		t0 := time.Now()
		for _, k := range []string{"initialize", "initialized", "list"} {
			if err := reqs[k].do(); err != nil {
				return nil, fmt.Errorf("handshake %s: %w", k, err)
			}
		}
		add("handshake", time.Since(t0))
		for _, k := range []string{"allowed", "refused", "401"} {
			t0 := time.Now()
			if err := reqs[k].do(); err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			add(k, time.Since(t0))
		}
	}
	var out []Phase
	for _, k := range []string{"start", "handshake", "allowed", "refused", "401", "shutdown"} {
		s := samples[k]
		slices.Sort(s)
		out = append(out, Phase{Name: k, P50: s[len(s)/2], P95: s[min(len(s)-1, len(s)*95/100)], N: len(s)})
	}
	return out, nil
}

// rawReq is one prebuilt HTTP/1.1 request sent on a new connection: the
// lean client keeps the figures about the bridge, not a client library.
// It dials without TCP keep-alive probes (pointless
// for a one-request connection, and four setsockopt calls each), writes
// the request in one call, reads the response until the bridge closes the
// connection (Connection: close) and checks the status line and that the
// body is as long as Content-Length says.
type rawReq struct {
	host   string // an IP literal and port: dialing it needs no lookup
	wire   []byte
	status []byte // "HTTP/1.1 200 "
	buf    []byte
}

var rawDialer = net.Dialer{KeepAlive: -1}

func newRaw(host, auth, body string, status int) *rawReq {
	w := "POST /mcp HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: " + auth +
		"\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: " +
		strconv.Itoa(len(body)) + "\r\n\r\n" + body
	return &rawReq{host: host, wire: []byte(w), status: []byte("HTTP/1.1 " + strconv.Itoa(status) + " "), buf: make([]byte, 64<<10)}
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
	return checkResponse(r.buf[:n], r.status)
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
