// Package store opens the app's single SQLite database (modernc.org/sqlite,
// pure Go) in WAL mode and applies versioned migrations.
//
// Each backend area owns its own schema: it passes a component name and an
// ordered list of migrations to Migrate. Versions are tracked per component
// in schema_migrations, so areas can evolve their tables independently.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// FileName is the database file inside the app data folder.
const FileName = "osfoundry.db"

// Migration is one forward-only schema step. Version numbers start at 1 and
// grow by one; SQL may hold several statements.
type Migration struct {
	Version int
	SQL     string
}

// ErrMigrationOrder is returned when a component's migrations are not
// numbered 1, 2, 3, … in order.
var ErrMigrationOrder = errors.New("migrations must be numbered 1, 2, 3, … in order")

// ErrNewerSchema: the database was written by a newer version of the app.
var ErrNewerSchema = errors.New("the database was written by a newer osFoundry")

// Open opens (creating if needed) the database at path with WAL journaling,
// a busy timeout and foreign keys on. Every pooled connection gets the same
// pragmas because they are part of the DSN.
func Open(path string) (*sql.DB, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("creating database folder: %w", err)
	}
	q := url.Values{}
	// busy_timeout first: switching a new file to WAL takes a lock that
	// another process opening it at the same moment may hold.
	q.Add("_pragma", "busy_timeout(5000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "foreign_keys(ON)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("opening database %s: %w", path, err)
	}
	if err := ping(db); err != nil {
		db.Close()
		return nil, fmt.Errorf("opening database %s: %w (if another program holds it, close it and retry)", path, err)
	}
	if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
		component TEXT NOT NULL,
		version INTEGER NOT NULL,
		applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
		PRIMARY KEY (component, version))`); err != nil {
		db.Close()
		return nil, fmt.Errorf("creating schema_migrations: %w", err)
	}
	return db, nil
}

// ping opens the first connection. Two processes turning a new file to WAL
// at the same moment can get SQLITE_BUSY without SQLite waiting out the
// busy timeout (it does not wait where waiting could deadlock), so a busy
// start is retried for up to the same five seconds.
func ping(db *sql.DB) error {
	deadline := time.Now().Add(5 * time.Second)
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 200*time.Millisecond) {
		err := db.Ping()
		if err == nil || !strings.Contains(err.Error(), "SQLITE_BUSY") || time.Now().After(deadline) {
			return err
		}
		time.Sleep(wait + time.Duration(rand.Int64N(int64(wait))))
	}
}

// Dir is the folder holding db's file, for files kept beside it (the tool
// audit's journals, the orchestration's process locks); "" for a database
// without a file (in memory).
func Dir(ctx context.Context, db *sql.DB) (string, error) {
	var seq int
	var name, file string
	if err := db.QueryRowContext(ctx, `PRAGMA database_list`).Scan(&seq, &name, &file); err != nil {
		return "", fmt.Errorf("finding the database file: %w", err)
	}
	if file == "" {
		return "", nil
	}
	return filepath.Dir(file), nil
}

// Migrate applies the migrations of component that are not yet recorded,
// each in its own transaction together with its bookkeeping row. Several
// processes open one database (the window, its hook helper, the command
// line, a second window): each transaction is BEGIN IMMEDIATE (the DSN's
// _txlock), so the version is read again under the write lock and a step
// another process applied meanwhile is skipped, not run twice. A database
// whose component is at a version this build does not know was written by
// a newer app and is refused (ErrNewerSchema), never used or rolled back.
func Migrate(ctx context.Context, db *sql.DB, component string, migrations []Migration) error {
	for i, m := range migrations {
		if m.Version != i+1 {
			return fmt.Errorf("migrating %s: %w", component, ErrMigrationOrder)
		}
	}
	current, err := version(ctx, db, component)
	if err != nil {
		return err
	}
	if current > len(migrations) {
		return newer(db, component, current, len(migrations))
	}
	for _, m := range migrations[current:] {
		if err := apply(ctx, db, component, m); err != nil {
			return err
		}
	}
	return nil
}

type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func version(ctx context.Context, q querier, component string) (int, error) {
	var v int
	if err := q.QueryRowContext(ctx,
		`SELECT COALESCE(MAX(version), 0) FROM schema_migrations WHERE component = ?`, component,
	).Scan(&v); err != nil {
		return 0, fmt.Errorf("reading %s schema version: %w", component, err)
	}
	return v, nil
}

func newer(db *sql.DB, component string, have, know int) error {
	var file string
	_ = db.QueryRow(`SELECT file FROM pragma_database_list WHERE name = 'main'`).Scan(&file)
	return fmt.Errorf("%w (its %s data is at version %d; this version knows %d): update osFoundry, "+
		"or move %s aside to start with an empty one: %w", ErrNewerSchema, component, have, know, file, errNoDowngrade)
}

var errNoDowngrade = errors.New("nothing was changed")

func apply(ctx context.Context, db *sql.DB, component string, m Migration) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrating %s to v%d: %w", component, m.Version, err)
	}
	defer tx.Rollback()
	current, err := version(ctx, tx, component)
	if err != nil {
		return err
	}
	if current >= m.Version {
		return nil // another process applied it while this one waited
	}
	if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
		return fmt.Errorf("migrating %s to v%d: %w", component, m.Version, err)
	}
	if _, err := tx.ExecContext(ctx,
		`INSERT INTO schema_migrations (component, version) VALUES (?, ?)`, component, m.Version); err != nil {
		return fmt.Errorf("recording %s v%d: %w", component, m.Version, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("committing %s v%d: %w", component, m.Version, err)
	}
	return nil
}
