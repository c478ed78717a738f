// Package bridge serves the app's tools to one agent run (Claude Code,
// Codex) as a private MCP server: a fresh HTTP listener on 127.0.0.1 with
// a per-run bearer token, the run's workspace/user/channel bound at start,
// and only the run's allowlisted tools offered or callable. Every call that
// passes is forwarded to the one tools executor, which applies the policy
// gate and audits it. The listener lives exactly as long as the run.
//
// The MCP side is the official Go SDK: one mcp.Server per run, built at
// Start. A single plain request reaches it through a one-message
// in-process session (direct.go) that skips the SDK HTTP handler's
// repeated parsing; batches and anything unusual go through the SDK's
// stateless HTTP handler itself, and tests hold both paths to the same
// answers.
package bridge

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/tools"
)

// Never offers these, whatever the allowlist says: the CLI agents already
// have folder-scoped file and shell tools of their own, and a second,
// app-wide copy would bypass their sandbox.
var forbidden = []string{"read_file", "write_file", "execute_command"}

// ErrForbiddenTool is returned by Start when the allowlist names a tool
// that is never served on the bridge.
var ErrForbiddenTool = errors.New("is never offered on the bridge (the CLI has its own folder-scoped version)")

// DefaultMaxBody bounds a request body. Tool arguments are small; a client
// sending more is broken or hostile.
const DefaultMaxBody = 1 << 20

// Executor is what the bridge forwards to: tools.Executor implements it.
type Executor interface {
	Lookup(name string) (tools.Meta, bool)
	Execute(ctx context.Context, c tools.Call) (tools.Result, error)
	// RecordRefusal audits a call the bridge refused before forwarding.
	RecordRefusal(ctx context.Context, c tools.Call, decision, detail string)
}

var _ Executor = (*tools.Executor)(nil)

// Config binds one bridge to one run. Workspace, User, Channel and Project
// are never read from requests or tool arguments.
type Config struct {
	Workspace string
	User      string
	Channel   string
	// Allow is the run's allowlist. Names the executor does not have (a
	// service not configured) are dropped; forbidden names fail Start.
	Allow    []string
	Executor Executor
	// Folder is the run's working folder (code_search, extract_content).
	Folder string
	// Project is the project the run was started for ("" = none); the
	// message tools reach only its discussion channel.
	Project string
	// Watched is true when someone can answer approval requests now.
	Watched  bool
	PlanMode bool
	// Source names the run in the audit ("bridge:<run id>"); default "bridge".
	Source string
	// MaxBody overrides DefaultMaxBody.
	MaxBody int64
	// Logger receives server-side errors; nil discards them.
	Logger *slog.Logger
}

// Bridge is one running per-run MCP server.
type Bridge struct {
	url   string
	token string
	tools []string

	srv    *http.Server
	ln     net.Listener
	cancel context.CancelFunc
	served chan struct{}
	once   sync.Once
	mu     sync.Mutex  // guards stop
	stop   func() bool // detaches the AfterFunc on the run's context
}

// Start listens on 127.0.0.1 (an OS-chosen port) and serves until Close or
// until ctx ends, whichever comes first.
func Start(ctx context.Context, cfg Config) (*Bridge, error) {
	if cfg.Executor == nil {
		return nil, errors.New("starting the bridge: no executor")
	}
	if cfg.Workspace == "" {
		return nil, errors.New("starting the bridge: no workspace bound")
	}
	allowed := make([]string, 0, len(cfg.Allow))
	metas := make([]tools.Meta, 0, len(cfg.Allow))
	for _, name := range cfg.Allow {
		if slices.Contains(forbidden, name) {
			return nil, fmt.Errorf("starting the bridge: %s %w", name, ErrForbiddenTool)
		}
		m, ok := cfg.Executor.Lookup(name)
		if !ok || slices.Contains(allowed, name) {
			continue
		}
		allowed = append(allowed, name)
		metas = append(metas, m)
	}
	if cfg.Source == "" {
		cfg.Source = "bridge"
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	token, err := newToken()
	if err != nil {
		return nil, fmt.Errorf("starting the bridge: %w", err)
	}
	// No TCP keep-alive probes: a connection carries one request and is
	// closed after its response, and enabling them costs four setsockopt
	// calls on every accepted connection.
	lc := net.ListenConfig{KeepAlive: -1}
	ln, err := lc.Listen(ctx, "tcp4", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("starting the bridge: listening on 127.0.0.1: %w", err)
	}
	port := ln.Addr().(*net.TCPAddr).Port

	base, cancel := context.WithCancel(context.WithoutCancel(ctx))
	h := &handler{
		cfg:     cfg,
		base:    base,
		token:   []byte(token),
		allowed: allowed,
		hosts:   loopbackHosts(port),
		origins: loopbackOrigins(port),
	}
	h.srv = newMCPServer(h, metas)
	h.mcp = newMCPHandler(h, h.srv)
	errLog := log.New(io.Discard, "", 0)
	if cfg.Logger != nil {
		errLog = slog.NewLogLogger(cfg.Logger.Handler(), slog.LevelWarn)
	}
	b := &Bridge{
		url:    "http://127.0.0.1:" + strconv.Itoa(port) + "/mcp",
		token:  token,
		tools:  allowed,
		ln:     ln,
		cancel: cancel,
		served: make(chan struct{}),
		srv: &http.Server{
			Handler:           h,
			ReadHeaderTimeout: 10 * time.Second,
			ReadTimeout:       30 * time.Second,
			MaxHeaderBytes:    64 << 10,
			ErrorLog:          errLog,
			// In-flight calls (an approval wait) end when the bridge closes.
			BaseContext: func(net.Listener) context.Context { return base },
		},
	}
	// One request per connection (the spec's Connection: close): no idle
	// keep-alive connection can outlive the run.
	b.srv.SetKeepAlivesEnabled(false)
	go func() {
		defer close(b.served)
		_ = b.srv.Serve(ln)
	}()
	// The run's context ending (timeout, cancellation) closes the bridge
	// even if the caller forgets to.
	// A context that is already done runs Close at once, on another
	// goroutine, possibly before stop is stored: hence the lock.
	stop := context.AfterFunc(ctx, func() { b.Close() })
	b.mu.Lock()
	b.stop = stop
	b.mu.Unlock()
	return b, nil
}

// With starts a bridge, runs fn and closes the bridge when fn returns,
// fails or panics: the listener never outlives the run.
func With(ctx context.Context, cfg Config, fn func(*Bridge) error) error {
	b, err := Start(ctx, cfg)
	if err != nil {
		return err
	}
	defer b.Close()
	return fn(b)
}

// URL is the MCP endpoint, http://127.0.0.1:<port>/mcp.
func (b *Bridge) URL() string { return b.url }

// Token is the run's bearer token (64 hex characters).
func (b *Bridge) Token() string { return b.token }

// Tools lists the tool names this bridge offers (the allowlist minus
// tools the executor does not have), in allowlist order.
func (b *Bridge) Tools() []string { return slices.Clone(b.tools) }

// Close stops the listener and drops every open connection at once; a
// connect afterwards is refused. Safe to call more than once and from any
// goroutine.
func (b *Bridge) Close() error {
	b.once.Do(func() {
		b.mu.Lock()
		stop := b.stop
		b.mu.Unlock()
		if stop != nil { // nil: the run's context ended during Start
			stop()
		}
		b.cancel()
		_ = b.srv.Close() // closes the listener and active connections
		<-b.served
	})
	return nil
}

// Done is closed once the bridge has stopped serving.
func (b *Bridge) Done() <-chan struct{} { return b.served }

func newToken() (string, error) {
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", fmt.Errorf("making the run token: %w", err)
	}
	return hex.EncodeToString(raw[:]), nil
}

func loopbackHosts(port int) []string {
	p := strconv.Itoa(port)
	return []string{"127.0.0.1:" + p, "localhost:" + p, "[::1]:" + p}
}

func loopbackOrigins(port int) []string {
	hs := loopbackHosts(port)
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = "http://" + h
	}
	return out
}
