// Package pgnotes is the team server's notes.Backend: the Notes, Records,
// knowledge bases, drafts and idempotency keys of backend/notes on
// PostgreSQL (pgx v5), plus the full-text search memory_search and
// search_knowledge_base read there. The rules (versioned compare-and-set,
// idempotency, validation) stay in backend/notes; this package only stores
// rows, and passes notestest.RunStoreSuite like the desktop's SQLite store.
//
// It is never linked into the desktop app: only the server imports it, so
// the window binary carries no PostgreSQL driver.
package pgnotes

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/pgdb"
)

// Component names this package's migrations (table schema_notes).
const Component = "notes"

//go:embed migrations/*.sql
var migrationFiles embed.FS

// Migrations is the schema, in goose's format, for pgdb.Migrate.
func Migrations() fs.FS { return pgdb.Embedded(migrationFiles) }

// DB is a notes.Backend on a PostgreSQL pool.
//
// Write transactions run at READ COMMITTED and lock what they compare. The
// rules in backend/notes were written against SQLite's single writer
// (BEGIN IMMEDIATE): read the idempotency key, read the version, compare,
// write. Here every read of a versioned row inside a write — a Note, a
// tab (with its Note), a Record item, an article — is SELECT … FOR UPDATE,
// and the idempotency key is looked up under a transaction-scoped advisory
// lock on (workspace, key). A second writer of the same Note or key waits
// for the first to commit and then reads what it committed: it answers
// version_conflict, or replays the key's first result, with no error and
// no re-run. Writers of different Notes never wait for each other.
//
// SERIALIZABLE was tried first and measured worse: its predicate locks are
// taken per index page, so writers of twenty different Notes aborted each
// other (523 re-runs for 500 writes, and some gave up after a dozen
// attempts) on nothing but shared idempotency and tab index pages.
//
// Write still re-runs a transaction PostgreSQL aborted as a deadlock (two
// writes locking the same rows in opposite orders; no rule does today) or
// a serialization failure, at most maxAttempts times with a short random
// pause; callbacks may therefore run more than once (see
// notes.Backend.Write).
type DB struct {
	pool *pgxpool.Pool
}

var _ notes.Backend = (*DB)(nil)

// maxAttempts bounds the re-runs of a write PostgreSQL aborted as a
// deadlock or a serialization failure; each re-run reads what its
// competitor committed, so one more attempt almost always settles it.
const maxAttempts = 12

// Open migrates the notes schema in the pool's database (under pgdb's
// advisory lock, so replicas may start together) and returns the backend.
func Open(ctx context.Context, pool *pgxpool.Pool) (*DB, error) {
	if err := pgdb.Migrate(ctx, pool, Component, Migrations()); err != nil {
		return nil, fmt.Errorf("opening the notes store: %w", err)
	}
	return &DB{pool: pool}, nil
}

// Write runs f in one transaction and commits when f returns nil,
// re-running it after a deadlock or a serialization failure.
func (d *DB) Write(ctx context.Context, f func(tx notes.Tx) error) error {
	for attempt := 1; ; attempt++ {
		err := d.writeOnce(ctx, f)
		if err == nil || !retryable(err) {
			return err
		}
		if attempt == maxAttempts {
			return fmt.Errorf("writing: other writes kept changing the same items (%d attempts): %w", attempt, err)
		}
		pause := time.Duration(rand.Int64N(int64(min(time.Millisecond<<attempt, 50*time.Millisecond))))
		select {
		case <-ctx.Done():
			return fmt.Errorf("writing: %w", ctx.Err())
		case <-time.After(pause):
		}
	}
}

func (d *DB) writeOnce(ctx context.Context, f func(tx notes.Tx) error) error {
	tx, err := d.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.ReadCommitted})
	if err != nil {
		return fmt.Errorf("starting a write: %w", err)
	}
	// Rollback after Commit does nothing; it must run even when ctx ended.
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	st := &txState{inTx: true, dirty: map[string]bool{}}
	if err := f(pgTx{q: tx, st: st}); err != nil {
		return st.cause(err)
	}
	for id := range st.dirty {
		if err := indexNote(ctx, tx, id); err != nil {
			return st.cause(err)
		}
	}
	// The changes are complete: commit even if the caller gave up after
	// they were made, so half a write never exists (as on SQLite).
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if err := tx.Commit(cctx); err != nil {
		return fmt.Errorf("committing: %w", st.cause(err))
	}
	return nil
}

// Snapshot runs f in a REPEATABLE READ, READ ONLY transaction: every read
// sees the same committed state, and it never waits for a writer.
func (d *DB) Snapshot(ctx context.Context, f func(tx notes.Tx) error) error {
	tx, err := d.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return fmt.Errorf("starting a read: %w", err)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	if err := f(pgTx{q: tx, st: &txState{}}); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// Pool runs each statement on its own (autocommit) on the pool.
func (d *DB) Pool() notes.Tx { return pgTx{q: d.pool, pool: d.pool, st: &txState{}} }

// retryable reports a serialization failure or a deadlock: the
// transaction was rolled back whole and may simply run again.
func retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01")
}

// txState is what one transaction's rows share.
type txState struct {
	inTx bool
	// dirty holds the Notes whose full-text document the write must
	// rewrite before it commits.
	dirty map[string]bool
	// failed is the first database error of the transaction. A callback
	// may turn an error into a result (ErrNotFound → "not found") and go
	// on; PostgreSQL then fails every later statement with "current
	// transaction is aborted", which hides a serialization failure that
	// Write should re-run.
	failed error
}

func (s *txState) saw(err error) error {
	var pe *pgconn.PgError
	if s.failed == nil && errors.As(err, &pe) {
		s.failed = err
	}
	return err
}

// cause is err, or the transaction's first failure when that one is the
// serialization failure behind err.
func (s *txState) cause(err error) error {
	if !retryable(err) && retryable(s.failed) {
		return fmt.Errorf("%w (after %v)", s.failed, err)
	}
	return err
}
