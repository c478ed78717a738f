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
	"net/url"
	"os"
	"path/filepath"

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

// Open opens (creating if needed) the database at path with WAL journaling,
// a busy timeout and foreign keys on. Every pooled connection gets the same
// pragmas because they are part of the DSN.
func Open(path string) (*sql.DB, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("creating database folder: %w", err)
	}
	q := url.Values{}
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "busy_timeout(5000)")
	q.Add("_pragma", "foreign_keys(ON)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("opening database %s: %w", path, err)
	}
	if err := db.Ping(); err != nil {
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

// Migrate applies the migrations of component that are not yet recorded,
// each in its own transaction together with its bookkeeping row.
func Migrate(ctx context.Context, db *sql.DB, component string, migrations []Migration) error {
	for i, m := range migrations {
		if m.Version != i+1 {
			return fmt.Errorf("migrating %s: %w", component, ErrMigrationOrder)
		}
	}
	var current int
	if err := db.QueryRowContext(ctx,
		`SELECT COALESCE(MAX(version), 0) FROM schema_migrations WHERE component = ?`, component,
	).Scan(&current); err != nil {
		return fmt.Errorf("reading %s schema version: %w", component, err)
	}
	for _, m := range migrations[min(current, len(migrations)):] {
		if err := apply(ctx, db, component, m); err != nil {
			return err
		}
	}
	return nil
}

func apply(ctx context.Context, db *sql.DB, component string, m Migration) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrating %s to v%d: %w", component, m.Version, err)
	}
	defer tx.Rollback()
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
