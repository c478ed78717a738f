// Package teamserver is the team server process: one replica of the
// shared osFoundry workspace, on PostgreSQL. It owns the HTTP listener and
// the database pool, migrates the schema of every component under an
// advisory lock, answers /healthz, /readyz and /metrics, logs JSON, and
// drains on SIGTERM. The stores and sign-in plug in as Components that
// bring their migrations and mount their routes.
//
// It keeps no state a request needs in the process: any number of replicas
// run behind one load balancer. It never runs in the window app; the
// `osfoundry team-server` command starts it (cmd/osfoundry lists the
// components):
//
//	teamserver.Component{Name: "notes", Migrations: pgnotes.Migrations(),
//		Start: func(ctx context.Context, s *teamserver.Server) error {
//			s.Mount("POST /api/workspaces/{ws}/notes", notesHandler(s.Pool()))
//			return nil
//		}}
package teamserver

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/osfoundry/desktop/backend/pgdb"
	"github.com/osfoundry/desktop/backend/teamserver/teamconfig"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Exit codes of Run. A schema newer than this binary will not fix itself
// by restarting, so it has its own code (systemd: RestartPreventExitStatus=3).
const (
	ExitOK          = 0
	ExitFailed      = 1 // the database is unreachable, the address is taken, a component failed
	ExitSchemaNewer = 3
)

// Component is one part of the team server (a store, sign-in): its
// migrations and its routes.
type Component struct {
	// Name is its schema's name: its migrations are tracked in the table
	// schema_<Name> and run under a lock of their own.
	Name string
	// Migrations holds goose SQL files (NNNNN_what.sql); nil when it has no tables.
	Migrations fs.FS
	// Start runs after every migration, before the listener opens: it
	// mounts the component's routes with s.Mount and may start work that
	// ends with ctx. An error stops the server from starting.
	Start func(ctx context.Context, s *Server) error
	// Ready, when set, is asked on every /readyz once the database answers:
	// an error (say, a lost LISTEN connection) makes the replica 503 with
	// the error's text until it returns nil again.
	Ready func(ctx context.Context) error
}

// Options are what Run needs beside the configuration.
type Options struct {
	Version    string
	Stdout     io.Writer // JSON logs, one object a line
	Stderr     io.Writer // a plain sentence when the server refuses to start
	Components []Component
}

// Server is one running replica. Components reach the pool, the
// configuration and the logger through it, and mount their routes on it.
type Server struct {
	cfg      teamconfig.Config
	version  string
	id       string
	log      *slog.Logger
	pool     *pgxpool.Pool
	mux      *http.ServeMux
	metrics  *metrics
	stderr   io.Writer
	ready    []Component // those with a Ready check
	dbUp     atomic.Bool
	draining chan struct{}
	drainMu  sync.Once
}

// Config is the server's configuration.
func (s *Server) Config() teamconfig.Config { return s.cfg }

// Pool is the server's PostgreSQL pool.
func (s *Server) Pool() *pgxpool.Pool { return s.pool }

// Logger logs JSON lines tagged with this replica.
func (s *Server) Logger() *slog.Logger { return s.log }

// ReplicaID names this process in logs and in server_replicas.
func (s *Server) ReplicaID() string { return s.id }

// Mount serves h at pattern (net/http ServeMux syntax, e.g. "POST /notes/{id}"
// or "/mcp/"). Requests are counted and timed by pattern, and logged with
// the pattern rather than the path, so a value in a {wildcard} never
// reaches a log line. It panics on a pattern already mounted.
func (s *Server) Mount(pattern string, h http.Handler) { s.mux.Handle(pattern, h) }

// Notice writes text for the operator on standard error, outside the JSON
// log: something they must act on once, such as the one-time bootstrap
// link, which no log line may hold.
func (s *Server) Notice(text string) {
	fmt.Fprintln(s.stderr, strings.TrimRight(text, "\n"))
}

// Draining is closed when the server starts to shut down: a long-lived
// response (a stream, a long poll) ends when it closes, so the drain
// finishes within its bound.
func (s *Server) Draining() <-chan struct{} { return s.draining }

func (s *Server) startDrain() { s.drainMu.Do(func() { close(s.draining) }) }

// Run starts a replica and serves until ctx ends, then drains. It returns
// the process's exit code; a refusal to start is logged and written to
// opts.Stderr as one sentence that says what to do.
func Run(ctx context.Context, cfg teamconfig.Config, opts Options) int {
	s := &Server{cfg: cfg, version: opts.Version, id: replicaID(), mux: http.NewServeMux(), draining: make(chan struct{}), stderr: opts.Stderr}
	s.log = slog.New(slog.NewJSONHandler(opts.Stdout, nil)).With("replica", s.id)
	refuse := func(code int, err error) int {
		s.log.Error("refusing to start", "error", err.Error())
		fmt.Fprintf(opts.Stderr, "osfoundry team-server: %v\n", err)
		return code
	}
	s.log.Info("starting", "version", s.version, "config", cfg.Redacted())
	pool, err := pgdb.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return refuse(ExitFailed, err)
	}
	defer pool.Close()
	s.pool = pool
	s.dbUp.Store(true)
	components := append([]Component{{Name: "server", Migrations: mustSub(migrations, "migrations")}}, builtin...)
	components = append(components, opts.Components...)
	var migrated []string
	for _, c := range components {
		if c.Migrations == nil {
			continue
		}
		if err := pgdb.Migrate(ctx, pool, c.Name, c.Migrations); err != nil {
			if errors.Is(err, pgdb.ErrSchemaNewer) {
				return refuse(ExitSchemaNewer, err)
			}
			return refuse(ExitFailed, err)
		}
		migrated = append(migrated, c.Name)
	}
	s.log.Info("the schema is up to date", "components", migrated)
	s.metrics = newMetrics(s)
	s.Mount("GET /healthz", http.HandlerFunc(s.healthz))
	s.Mount("GET /readyz", http.HandlerFunc(s.readyz))
	s.Mount("GET /metrics", s.metrics.handler())

	work, stopWork := context.WithCancel(context.WithoutCancel(ctx))
	defer stopWork()
	for _, c := range components {
		if c.Ready != nil {
			s.ready = append(s.ready, c)
		}
		if c.Start == nil {
			continue
		}
		if err := c.Start(work, s); err != nil {
			return refuse(ExitFailed, fmt.Errorf("starting %s: %w", c.Name, err))
		}
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return refuse(ExitFailed, fmt.Errorf("listening on %s: %w: pick a free address with --listen or %s", cfg.Listen, err, teamconfig.EnvListen))
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); s.watchDatabase(work) }()
	go func() { defer wg.Done(); s.heartbeat(work, ln.Addr().String()) }()

	hs := &http.Server{
		Handler:           s.instrument(s.mux),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return work },
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	s.log.Info("serving", "addr", ln.Addr().String(), "public_url", cfg.PublicURL)

	code := ExitOK
	select {
	case err := <-served:
		s.log.Error("the listener failed", "error", err.Error())
		code = ExitFailed
	case <-ctx.Done():
		code = s.drain(hs)
	}
	stopWork()
	wg.Wait()
	s.log.Info("stopped", "exit_code", code)
	return code
}

// drain answers /readyz with 503 at once, keeps accepting for the drain
// delay (a balancer that polls /readyz stops sending), then closes the
// listener and lets in-flight requests finish within the drain timeout.
func (s *Server) drain(hs *http.Server) int {
	s.startDrain()
	s.log.Info("draining", "delay", s.cfg.DrainDelay.String(), "timeout", s.cfg.DrainTimeout.String())
	time.Sleep(s.cfg.DrainDelay)
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.DrainTimeout)
	defer cancel()
	if err := hs.Shutdown(ctx); err != nil {
		s.log.Warn("requests still running at the drain timeout were cut", "in_flight", s.metrics.inFlightNow(), "error", err.Error())
		hs.Close()
	}
	return ExitOK
}

// builtin are components every build starts; a test build adds its
// routes here.
var builtin []Component

func mustSub(f fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(f, dir)
	if err != nil {
		panic(err)
	}
	return sub
}
