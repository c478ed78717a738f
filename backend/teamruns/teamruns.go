// Package teamruns is the team server's side of "Runs go to desktops"
// (TEAM.md, principle 9): a run a teammate or an assistant asks for in a
// workspace is queued in PostgreSQL (a River job beside a team_runs row),
// claimed by a signed-in desktop whose person turned on "Run work for the
// team", done there with the desktop's own CLIs, and its progress and
// answer are posted back. The claiming desktop holds a lease it renews
// while it works; a desktop that vanishes lets it lapse and the run reads
// Interrupted. A run is never started again by itself: runs have side
// effects.
package teamruns

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/osfoundry/desktop/backend/pgdb"
	"github.com/osfoundry/desktop/backend/teamauth"
)

// Component names this package's migrations (table schema_teamruns).
const Component = "teamruns"

//go:embed migrations/*.sql
var migrationFiles embed.FS

// Migrations is the schema, in goose's format, for pgdb.Migrate. River's
// own tables are migrated by Start, with River's migrator.
func Migrations() fs.FS { return pgdb.Embedded(migrationFiles) }

// Lease is how long a claim holds without news from the desktop; a
// runner reports well within it.
const Lease = 6 * time.Second

// RunnerSeen is how recently a desktop must have asked for work to count
// as online (a request with none online is refused at once).
const RunnerSeen = 15 * time.Second

// Config is what the team server passes in.
type Config struct {
	Pool   *pgxpool.Pool
	Auth   *teamauth.Service
	Logger *slog.Logger
}

// Service serves the run API and watches the leases.
type Service struct {
	cfg   Config
	river *river.Client[pgx.Tx]
}

// New checks cfg.
func New(cfg Config) (*Service, error) {
	if cfg.Pool == nil || cfg.Auth == nil {
		return nil, errors.New("teamruns: Pool and Auth are required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Service{cfg: cfg}, nil
}

// Start migrates River's tables (one replica at a time) and starts its
// client, which works each run's watch job until ctx ends.
func (s *Service) Start(ctx context.Context) error {
	driver := riverpgxv5.New(s.cfg.Pool)
	mig, err := rivermigrate.New(driver, nil)
	if err != nil {
		return fmt.Errorf("runs: %w", err)
	}
	// River's versions each commit on their own (one adds an enum value a
	// later one uses); replicas starting together take turns.
	lock, err := s.cfg.Pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("runs: migrating the queue: %w", err)
	}
	defer lock.Release()
	if _, err := lock.Exec(ctx, `SELECT pg_advisory_lock(hashtext('osfoundry river migrate'))`); err != nil {
		return fmt.Errorf("runs: migrating the queue: %w", err)
	}
	_, err = mig.Migrate(ctx, rivermigrate.DirectionUp, nil)
	if _, uerr := lock.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock(hashtext('osfoundry river migrate'))`); err == nil && uerr != nil {
		err = uerr
	}
	if err != nil {
		return fmt.Errorf("runs: migrating the queue: %w", err)
	}
	workers := river.NewWorkers()
	river.AddWorker(workers, &watchWorker{s: s})
	c, err := river.NewClient(driver, &river.Config{
		Queues:  map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: 1000}},
		Workers: workers, Logger: s.cfg.Logger,
		// A watch whose replica died is taken up by another one.
		RescueStuckJobsAfter: time.Minute,
	})
	if err != nil {
		return fmt.Errorf("runs: starting the queue: %w", err)
	}
	if err := c.Start(ctx); err != nil {
		return fmt.Errorf("runs: starting the queue: %w", err)
	}
	s.river = c
	go func() {
		<-ctx.Done()
		stop, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = c.Stop(stop)
	}()
	return nil
}

// Register hands each route to mount; every route takes a desktop's
// access token and checks the person's role in the workspace.
func (s *Service) Register(mount func(pattern string, h http.Handler)) {
	api := s.cfg.Auth.DesktopAPI
	mount("POST /api/runs/{ws}", api(s.request))
	mount("GET /api/runs/{ws}/{run}", api(s.get))
	mount("POST /api/runner/{ws}/claim", api(s.claim))
	mount("POST /api/runner/{ws}/runs/{run}", api(s.report))
}

func badInput(format string, a ...any) error {
	return teamauth.Refuse(http.StatusBadRequest, format, a...)
}
