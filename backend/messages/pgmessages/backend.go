// Package pgmessages is the team server's message store: messages.Backend
// (and messages.PostLimiter) over PostgreSQL, so the rules in
// messages.Store run unchanged on every replica. messagestest.RunStoreSuite
// holds it to the same expectations as the desktop's SQLite backend.
//
// Where the desktop relies on SQLite's single writer, this package takes
// PostgreSQL locks instead: an idempotency key is looked up under a
// transaction-scoped advisory lock on that key, so a retry racing the
// first attempt (on another replica) waits for it and replays it; posts to
// one channel take that channel's lock, so seqs commit in order and a
// reader paging with `since` never skips a post committed late; the
// post-rate window is a row per author, locked while it is updated.
//
// Each committed post is announced by PostgreSQL NOTIFY, so any replica
// can follow the posts the others take (Listen).
//
// It reads the notes store's workspaces and projects tables (pgnotes) and never
// writes them; it never imports the desktop's SQLite code paths, and the
// desktop never imports it.
package pgmessages

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/pgdb"
)

// Component is this package's name for pgdb.Migrate (table schema_messages).
const Component = "messages"

//go:embed migrations/*.sql
var migrationFiles embed.FS

// Migrations are the component's goose migrations.
func Migrations() fs.FS { return pgdb.Embedded(migrationFiles) }

// Advisory lock classes (the first key of the two-key form, which never
// meets pgdb's one-key migration locks); the second key is a hash.
const (
	lockKey     = 0x6d6b // an idempotency key of a workspace
	lockChannel = 0x6d63 // posting to a channel
)

// Backend is messages.Backend over a PostgreSQL pool.
type Backend struct {
	pool       *pgxpool.Pool
	noProjects bool
	swept      atomic.Int64 // unix nanoseconds of the last sweep of stale post windows
}

var (
	_ messages.Backend     = (*Backend)(nil)
	_ messages.PostLimiter = (*Backend)(nil)
)

// Open migrates the message tables and returns the backend over them. Open
// it after the notes store has migrated: when the projects table exists,
// each new project gets its discussion channel in the transaction that
// creates it, as on the desktop; without it (a message store alone) no
// project lacks one.
func Open(ctx context.Context, pool *pgxpool.Pool) (*Backend, error) {
	if err := pgdb.Migrate(ctx, pool, Component, Migrations()); err != nil {
		return nil, fmt.Errorf("opening message store: %w", err)
	}
	projects, err := attachDiscussionTrigger(ctx, pool)
	if err != nil {
		return nil, fmt.Errorf("opening message store: %w", err)
	}
	return &Backend{pool: pool, noProjects: !projects}, nil
}

// attachDiscussionTrigger puts messages_discussion_channel on the projects
// table when it exists, once however many replicas start together, and
// reports whether it exists.
func attachDiscussionTrigger(ctx context.Context, pool *pgxpool.Pool) (bool, error) {
	exists := false
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, `SELECT to_regclass('projects') IS NOT NULL`).Scan(&exists); err != nil {
			return fmt.Errorf("looking for the projects table: %w", err)
		}
		if !exists {
			return nil
		}
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('messages discussion trigger'))`); err != nil {
			return fmt.Errorf("locking the discussion trigger: %w", err)
		}
		var has bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_trigger
			WHERE tgname = 'projects_discussion_channel' AND tgrelid = 'projects'::regclass)`).Scan(&has); err != nil {
			return fmt.Errorf("looking for the discussion trigger: %w", err)
		}
		if has {
			return nil
		}
		if _, err := tx.Exec(ctx, `CREATE TRIGGER projects_discussion_channel AFTER INSERT ON projects
			FOR EACH ROW EXECUTE FUNCTION messages_discussion_channel()`); err != nil {
			return fmt.Errorf("creating discussion channels with projects: %w", err)
		}
		return nil
	})
	return exists, err
}

// maxAttempts bounds how often Write runs f again after PostgreSQL
// aborted it to settle a deadlock or a serialization conflict.
const maxAttempts = 4

// Write runs f in one READ COMMITTED transaction: each statement sees
// what committed before it started, which is what the locks above rely
// on. A transaction PostgreSQL aborted to break a deadlock is run again.
func (b *Backend) Write(ctx context.Context, f func(tx messages.Tx) error) error {
	for attempt := 1; ; attempt++ {
		err := pgx.BeginTxFunc(ctx, b.pool, pgx.TxOptions{IsoLevel: pgx.ReadCommitted}, func(tx pgx.Tx) error {
			return f(rowsOn{q: tx, inTx: true, noProjects: b.noProjects})
		})
		if err == nil || attempt == maxAttempts || !retryable(err) {
			return err
		}
	}
}

// Pool returns rows whose statements each run on their own.
func (b *Backend) Pool() messages.Tx { return rowsOn{q: b.pool, noProjects: b.noProjects} }

func retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01")
}

// querier is what both the pool and a transaction offer.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Begin(ctx context.Context) (pgx.Tx, error)
}

// rowsOn hands out the rows over one querier: a Write's transaction
// (inTx) or the pool.
type rowsOn struct {
	q          querier
	inTx       bool
	noProjects bool
}

type (
	channelRows rowsOn
	postRows    rowsOn
	placeRows   rowsOn
)

var (
	_ messages.Tx          = rowsOn{}
	_ messages.ChannelRows = channelRows{}
	_ messages.PostRows    = postRows{}
	_ messages.PlaceRows   = placeRows{}
)

func (r rowsOn) Channels() messages.ChannelRows { return channelRows(r) }
func (r rowsOn) Posts() messages.PostRows       { return postRows(r) }
func (r rowsOn) Places() messages.PlaceRows     { return placeRows(r) }

// locked runs f after taking the advisory lock (class, hash of key) for
// the rest of the transaction: the Write's, or a new one on the pool.
func (r rowsOn) locked(ctx context.Context, class int32, key string, f func(q querier) error) error {
	run := func(q querier) error {
		if _, err := q.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, class, key); err != nil {
			return fmt.Errorf("taking a lock: %w", err)
		}
		return f(q)
	}
	if r.inTx {
		return run(r.q)
	}
	return pgx.BeginFunc(ctx, r.q, func(tx pgx.Tx) error { return run(tx) })
}

// stored reports whether every one of ids could be stored: PostgreSQL
// refuses a NUL character or invalid UTF-8 in a query, where SQLite
// simply finds nothing, so a lookup of such an id finds nothing here too.
func stored(ids ...string) bool {
	for _, id := range ids {
		if !messages.Storable(id) {
			return false
		}
	}
	return true
}

// notFound maps pgx.ErrNoRows to messages.ErrNotFound, saying what was
// missing.
func notFound(err error, what string, args ...any) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("%s: %w", fmt.Sprintf(what, args...), messages.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("reading %s: %w", fmt.Sprintf(what, args...), err)
	}
	return nil
}
