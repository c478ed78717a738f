package pgnotes

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/osfoundry/desktop/backend/notes"
)

// querier is what a pool and a transaction have in common.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// pgTx hands out each resource's rows over one querier: a transaction
// (Write, Snapshot) or the pool (Pool, pool set).
type pgTx struct {
	q    querier
	pool *pgxpool.Pool
	st   *txState
}

var _ notes.Tx = pgTx{}

func (t pgTx) Keys() notes.KeyRows            { return pgKeys(t) }
func (t pgTx) Places() notes.PlaceRows        { return pgPlaces(t) }
func (t pgTx) Notes() notes.NoteRows          { return pgNotes(t) }
func (t pgTx) Records() notes.RecordRows      { return pgRecords(t) }
func (t pgTx) Knowledge() notes.KnowledgeRows { return pgKnowledge(t) }
func (t pgTx) Drafts() notes.DraftRows        { return pgDrafts(t) }

// PostgreSQL cannot keep a NUL character or invalid UTF-8 in text, and
// refuses a statement that carries one; SQLite keeps it, or finds nothing.
// So an id no row can have (a caller may send anything) finds nothing here
// too — reads return ErrNotFound or no rows, updates and deletes match
// nothing — and text that cannot be stored is refused with ErrInvalid
// before the statement runs (storeText), instead of a database error that
// would also abort the write transaction.

// storable reports whether every string among args can be stored.
func storable(args []any) bool {
	for _, a := range args {
		if s, ok := a.(string); ok && (!utf8.ValidString(s) || strings.ContainsRune(s, 0)) {
			return false
		}
	}
	return true
}

// storeText refuses values an insert or update would store but cannot.
func storeText(what string, values ...any) error {
	if storable(values) {
		return nil
	}
	return fmt.Errorf("%s: %w: the text holds a NUL character or invalid UTF-8, which cannot be stored; remove it and try again", what, notes.ErrInvalid)
}

func (t pgTx) exec(ctx context.Context, what, sql string, args ...any) (pgconn.CommandTag, error) {
	if !storable(args) {
		if strings.HasPrefix(strings.TrimSpace(sql), "INSERT") || strings.HasPrefix(strings.TrimSpace(sql), "WITH") {
			return pgconn.CommandTag{}, storeText(what, args...)
		}
		return pgconn.CommandTag{}, nil
	}
	tag, err := t.q.Exec(ctx, sql, args...)
	if err != nil {
		return tag, fmt.Errorf("%s: %w", what, t.st.saw(err))
	}
	return tag, nil
}

// one reports whether an update touched a row; none is ErrNotFound.
func (t pgTx) one(ctx context.Context, what, sql string, args ...any) error {
	tag, err := t.exec(ctx, what, sql, args...)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("%s: %w", what, notes.ErrNotFound)
	}
	return nil
}

// ifVersion runs a conditional update and reports whether it matched.
func (t pgTx) ifVersion(ctx context.Context, what, sql string, args ...any) (bool, error) {
	tag, err := t.exec(ctx, what, sql, args...)
	return err == nil && tag.RowsAffected() == 1, err
}

// row scans a single-row read, turning "no rows" into ErrNotFound.
func (t pgTx) row(ctx context.Context, what string, dest []any, sql string, args ...any) error {
	if !storable(args) {
		return fmt.Errorf("%s: %w", what, notes.ErrNotFound)
	}
	err := t.q.QueryRow(ctx, sql, args...).Scan(dest...)
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("%s: %w", what, notes.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("reading %s: %w", what, t.st.saw(err))
	}
	return nil
}

// collect runs query and scans every row with scan.
func collect[T any](ctx context.Context, t pgTx, what string, scan func(sc pgx.Row) (T, error), sql string, args ...any) ([]T, error) {
	if !storable(args) {
		return []T{}, nil
	}
	rows, err := t.q.Query(ctx, sql, args...)
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", what, t.st.saw(err))
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", what, t.st.saw(err))
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("listing %s: %w", what, t.st.saw(err))
	}
	return out, nil
}

// noteChanged schedules the rewrite of a Note's full-text document: at the
// end of the write transaction, or at once (in a transaction of its own)
// for a statement run on the pool.
func (t pgTx) noteChanged(ctx context.Context, id string) error {
	if t.st.inTx {
		t.st.dirty[id] = true
		return nil
	}
	if t.pool == nil {
		return fmt.Errorf("indexing note %s: a read-only transaction changed it", id)
	}
	return pgx.BeginTxFunc(ctx, t.pool, pgx.TxOptions{}, func(tx pgx.Tx) error {
		// Lock the Note so two pool writes of it index in commit order.
		if _, err := tx.Exec(ctx, `SELECT 1 FROM notes WHERE id = $1 FOR UPDATE`, id); err != nil {
			return fmt.Errorf("indexing note %s: %w", id, err)
		}
		return indexNote(ctx, tx, id)
	})
}

// locked is the locking clause of a read inside a write: the row a rule
// compares stays as read until the write commits (see DB).
func (t pgTx) locked() string {
	if t.st.inTx {
		return ` FOR UPDATE`
	}
	return ``
}

// lockKey is the advisory lock class (the first key of the two-key form,
// which never meets pgdb's one-key migration locks) of an idempotency key;
// the second key is a hash of the workspace and the key.
const lockKey = 0x6e6b // "nk"

func stored(t time.Time) string { return notes.StoredTime(t) }

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// pgKeys keeps idempotency keys.
type pgKeys pgTx

var _ notes.KeyRows = pgKeys{}

const keyQuery = `SELECT tool, args_hash, result FROM idempotency WHERE workspace_id = $1 AND key = $2`

func (k pgKeys) Key(ctx context.Context, workspace, key string) (notes.StoredKey, error) {
	var sk notes.StoredKey
	dest := []any{&sk.Tool, &sk.ArgsHash, &sk.Result}
	if !k.st.inTx || !storable([]any{workspace, key}) {
		return sk, pgTx(k).row(ctx, "idempotency key", dest, keyQuery, workspace, key)
	}
	// The lock is held until commit: a retry of the same write waits here,
	// then reads the key the first one stored (the lookup is a statement of
	// its own, with a snapshot taken after the lock) and replays its
	// result. Both go in one round trip.
	b := &pgx.Batch{}
	b.Queue(`SELECT pg_advisory_xact_lock($1, hashtext($2 || '/' || $3))`, lockKey, workspace, key)
	b.Queue(keyQuery, workspace, key)
	res := k.q.SendBatch(ctx, b)
	defer res.Close()
	if _, err := res.Exec(); err != nil {
		return sk, fmt.Errorf("locking idempotency key: %w", k.st.saw(err))
	}
	err := res.QueryRow().Scan(dest...)
	if errors.Is(err, pgx.ErrNoRows) {
		return sk, fmt.Errorf("idempotency key: %w", notes.ErrNotFound)
	}
	if err != nil {
		return sk, fmt.Errorf("reading idempotency key: %w", k.st.saw(err))
	}
	return sk, nil
}

func (k pgKeys) InsertKey(ctx context.Context, workspace, key string, sk notes.StoredKey, now time.Time) error {
	_, err := pgTx(k).exec(ctx, "storing idempotency key", `INSERT INTO idempotency (workspace_id, key, tool, args_hash, result, created_at)
		VALUES ($1, $2, $3, $4, $5, $6)`, workspace, key, sk.Tool, sk.ArgsHash, sk.Result, stored(now))
	return err
}

// pgDrafts keeps the editor's drafts.
type pgDrafts pgTx

var _ notes.DraftRows = pgDrafts{}

func (d pgDrafts) PutDraft(ctx context.Context, dr notes.Draft) error {
	_, err := pgTx(d).exec(ctx, "keeping draft", `INSERT INTO drafts (owner_id, item_id, data, saved_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (owner_id, item_id) DO UPDATE SET data = excluded.data, saved_at = excluded.saved_at`, dr.OwnerID, dr.ItemID, dr.Data, dr.SavedAt)
	return err
}

func (d pgDrafts) DeleteDraft(ctx context.Context, owner, item string) error {
	_, err := pgTx(d).exec(ctx, "dropping draft", `DELETE FROM drafts WHERE owner_id = $1 AND item_id = $2`, owner, item)
	return err
}

func (d pgDrafts) Draft(ctx context.Context, owner, item string) (notes.Draft, error) {
	dr := notes.Draft{OwnerID: owner, ItemID: item}
	err := pgTx(d).row(ctx, "draft of "+owner+"/"+item, []any{&dr.Data, &dr.SavedAt},
		`SELECT data, saved_at FROM drafts WHERE owner_id = $1 AND item_id = $2`, owner, item)
	return dr, err
}

func (d pgDrafts) Drafts(ctx context.Context) ([]notes.Draft, error) {
	return collect(ctx, pgTx(d), "drafts", func(sc pgx.Row) (notes.Draft, error) {
		var dr notes.Draft
		return dr, sc.Scan(&dr.OwnerID, &dr.ItemID, &dr.Data, &dr.SavedAt)
	}, `SELECT owner_id, item_id, data, saved_at FROM drafts ORDER BY saved_at, owner_id, item_id`)
}
