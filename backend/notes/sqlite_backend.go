package notes

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/store"
)

// sqliteDB is the desktop's Backend: the app's SQLite file (WAL). Writes run
// on one dedicated connection (sqlite_writer.go); reads run on the pool in
// read-only transactions, which in WAL mode never wait for the writer.
type sqliteDB struct {
	db *sql.DB
	// reads holds the prepared statements of memory_search's path, which
	// runs on every agent call.
	reads *store.Stmts

	// The writer connection: wmu is held from BEGIN IMMEDIATE to
	// COMMIT/ROLLBACK; wconn and wstmts are only touched under it.
	wmu    sync.Mutex
	wconn  *sql.Conn
	wstmts map[string]*sql.Stmt
}

var _ Backend = (*sqliteDB)(nil)

func newSQLiteDB(db *sql.DB) *sqliteDB {
	return &sqliteDB{db: db, reads: store.NewStmts(db)}
}

// Write runs f in BEGIN IMMEDIATE … COMMIT on the writer connection.
func (s *sqliteDB) Write(ctx context.Context, f func(tx Tx) error) error {
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := f(sqliteTx{tx}); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("committing: %w", lockErr(err))
	}
	return nil
}

// Snapshot runs f in a read-only (deferred) transaction: store.Open sets
// _txlock=immediate, so a default BeginTx would take the write lock.
func (s *sqliteDB) Snapshot(ctx context.Context, f func(tx Tx) error) error {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("starting a read: %w", lockErr(err))
	}
	defer tx.Rollback()
	return f(sqliteTx{tx})
}

// Pool runs each statement on its own on the connection pool.
func (s *sqliteDB) Pool() Tx { return sqliteTx{s.db} }

// sqlQ is what *sql.DB, *sql.Tx and the writer's wtx have in common.
type sqlQ interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// sqliteTx hands out each resource's rows over one sqlQ.
type sqliteTx struct{ q sqlQ }

var _ Tx = sqliteTx{}

func (t sqliteTx) Keys() KeyRows            { return sqliteKeys(t) }
func (t sqliteTx) Places() PlaceRows        { return sqlitePlaces(t) }
func (t sqliteTx) Notes() NoteRows          { return sqliteNotes(t) }
func (t sqliteTx) Records() RecordRows      { return sqliteRecords(t) }
func (t sqliteTx) Knowledge() KnowledgeRows { return sqliteKnowledge(t) }
func (t sqliteTx) Drafts() DraftRows        { return sqliteDrafts(t) }
func (t sqliteTx) exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	res, err := t.q.ExecContext(ctx, q, args...)
	return res, lockErr(err)
}

// rowErr turns a single-row read's "no rows" into ErrNotFound.
func rowErr(err error, what string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%s: %w", what, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("reading %s: %w", what, lockErr(err))
	}
	return nil
}

// collect runs query and scans every row with scan.
func collect[T any](ctx context.Context, q sqlQ, what string, scan func(sc scanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", what, lockErr(err))
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", what, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("listing %s: %w", what, lockErr(err))
	}
	return out, nil
}

type scanner interface{ Scan(...any) error }

// querier is what the screens' change watchers read through (a held
// connection: PRAGMA data_version is per connection).
type querier interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
}

// sqliteKeys keeps idempotency keys in the idempotency table.
type sqliteKeys sqliteTx

var _ KeyRows = sqliteKeys{}

func (k sqliteKeys) Key(ctx context.Context, workspace, key string) (StoredKey, error) {
	var sk StoredKey
	err := k.q.QueryRowContext(ctx, `SELECT tool, args_hash, result FROM idempotency WHERE workspace_id = ? AND key = ?`,
		workspace, key).Scan(&sk.Tool, &sk.ArgsHash, &sk.Result)
	return sk, rowErr(err, "idempotency key")
}

func (k sqliteKeys) InsertKey(ctx context.Context, workspace, key string, sk StoredKey, now time.Time) error {
	_, err := sqliteTx(k).exec(ctx, `INSERT INTO idempotency (workspace_id, key, tool, args_hash, result, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`, workspace, key, sk.Tool, sk.ArgsHash, sk.Result, formatTime(now))
	return err
}
