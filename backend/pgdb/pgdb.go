// Package pgdb opens the team server's PostgreSQL database and migrates
// it. Each component (notes, messages, connect, the server's own tables)
// keeps its migrations beside its code, in its own goose version table;
// they run under a PostgreSQL advisory lock, so however many replicas start
// at once, each migration runs exactly once.
package pgdb

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/database"
	"github.com/pressly/goose/v3/lock"
)

// defaultPoolSize is each replica's connection pool unless the database URL
// sets pool_max_conns; PostgreSQL's default of 100 connections serves six
// replicas at this size.
const defaultPoolSize = 16

// ErrSchemaNewer is returned by Migrate when the database was migrated by a
// newer server than this one.
var ErrSchemaNewer = errors.New("the database schema is newer than this server")

// Open connects to the database at dsn and checks it answers, so a server
// can refuse to start with a message that says what to do.
func Open(ctx context.Context, dsn string) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("the PostgreSQL URL cannot be read (%v): pass one like postgres://user@host:5432/osfoundry", redactErr(err))
	}
	if !strings.Contains(dsn, "pool_max_conns") {
		// pgxpool's default (4 on two cores) left tool calls queueing behind
		// each other and the replica's listener, which keeps one for itself:
		// guarded writes waited 340 ms p50 at 500 calls/s against 13 ms with
		// 16 (osfoundry-bench server). An operator's pool_max_conns wins.
		cfg.MaxConns = defaultPoolSize
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("opening PostgreSQL: %w", err)
	}
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := pool.Ping(pctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("cannot reach PostgreSQL at %s:%d (%v): check the database URL and that the server runs and accepts this user",
			cfg.ConnConfig.Host, cfg.ConnConfig.Port, err)
	}
	return pool, nil
}

// redactErr drops a password a parse error may quote.
func redactErr(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return "not a valid URL"
	}
	return err.Error()
}

// Migrate applies component's migrations from fsys (files NNNNN_name.sql
// in goose's format) under an advisory lock. It refuses, without changing
// anything, a database whose component schema is newer than fsys knows.
func Migrate(ctx context.Context, pool *pgxpool.Pool, component string, fsys fs.FS) error {
	db := stdlib.OpenDBFromPool(pool)
	defer db.Close()
	store, err := database.NewStore(database.DialectPostgres, "schema_"+component)
	if err != nil {
		return fmt.Errorf("migrating %s: %w", component, err)
	}
	locker, err := lock.NewPostgresSessionLocker(lock.WithLockID(lockID(component)), lock.WithLockTimeout(1, 300))
	if err != nil {
		return fmt.Errorf("migrating %s: %w", component, err)
	}
	p, err := goose.NewProvider("", db, fsys, goose.WithStore(store), goose.WithSessionLocker(locker), goose.WithDisableGlobalRegistry(true))
	if err != nil {
		return fmt.Errorf("migrating %s: %w", component, err)
	}
	known := int64(0)
	for _, s := range p.ListSources() {
		known = max(known, s.Version)
	}
	if err := newer(ctx, p, component, known); err != nil {
		return err
	}
	if _, err := p.Up(ctx); err != nil {
		// a replica that raced a newer one may find versions it does not know
		if nerr := newer(ctx, p, component, known); nerr != nil {
			return nerr
		}
		return fmt.Errorf("migrating %s: %w", component, err)
	}
	return nil
}

func newer(ctx context.Context, p *goose.Provider, component string, known int64) error {
	have, err := p.GetDBVersion(ctx)
	if err != nil && !errors.Is(err, goose.ErrVersionNotFound) {
		return fmt.Errorf("reading the %s schema version: %w", component, err)
	}
	if have > known {
		return fmt.Errorf("%w: %s is at version %d, this server knows up to %d: upgrade this server to the release the other replicas run (never downgrade a database)",
			ErrSchemaNewer, component, have, known)
	}
	return nil
}

// lockID is the advisory lock of one component's migrations.
func lockID(component string) int64 {
	var h int64 = 0x6f7366 // "osf"
	for _, r := range component {
		h = h*31 + int64(r)
	}
	return h
}

// Embedded is a component's goose files, embedded under migrations/, as
// the fs.FS Migrate takes: every PostgreSQL component declares
//
//	//go:embed migrations/*.sql
//	var migrationFiles embed.FS
//
// and returns pgdb.Embedded(migrationFiles) from its Migrations.
func Embedded(files embed.FS) fs.FS {
	sub, err := fs.Sub(files, "migrations")
	if err != nil {
		panic(err) // the embedded folder always exists
	}
	return sub
}
