package pgmessages

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/osfoundry/desktop/backend/messages"
)

// sweepEvery spaces out the deletion of windows of authors who stopped
// posting: they are harmless (the next post slides them), only rows.
const sweepEvery = time.Minute

// TakePost is messages.PostLimiter over message_post_windows: the author's
// row is locked from reading its times to writing them back, so replicas
// counting the same author take turns and never pass limit together.
func (b *Backend) TakePost(ctx context.Context, author string, now time.Time, limit int) (bool, time.Duration, error) {
	var ok bool
	var wait time.Duration
	err := pgx.BeginTxFunc(ctx, b.pool, pgx.TxOptions{IsoLevel: pgx.ReadCommitted}, func(tx pgx.Tx) error {
		// The upsert locks the author's row, creating it when the author
		// has none, in one step that cannot lose to a concurrent sweep.
		var times []time.Time
		if err := tx.QueryRow(ctx, `INSERT INTO message_post_windows AS w (author, times) VALUES ($1, '{}')
			ON CONFLICT (author) DO UPDATE SET times = w.times RETURNING times`, author).Scan(&times); err != nil {
			return fmt.Errorf("reading the post window: %w", err)
		}
		var kept []time.Time
		kept, ok, wait = messages.SlideWindow(times, now, limit)
		if _, err := tx.Exec(ctx, `UPDATE message_post_windows SET times = $2 WHERE author = $1`, author, kept); err != nil {
			return fmt.Errorf("writing the post window: %w", err)
		}
		return nil
	})
	if err != nil {
		return false, 0, fmt.Errorf("counting the posts of %s: %w", author, err)
	}
	b.sweep(ctx, now)
	return ok, wait, nil
}

// sweep deletes the windows whose last post is a minute old, at most once
// per sweepEvery per replica. It skips rows another replica holds, so it
// never waits for or deadlocks with a TakePost.
func (b *Backend) sweep(ctx context.Context, now time.Time) {
	last := b.swept.Load()
	if now.UnixNano()-last < int64(sweepEvery) || !b.swept.CompareAndSwap(last, now.UnixNano()) {
		return
	}
	// Best effort: a failed sweep leaves rows the next one deletes.
	_, _ = b.pool.Exec(ctx, `DELETE FROM message_post_windows WHERE author IN (
		SELECT author FROM message_post_windows WHERE COALESCE(times[cardinality(times)], '-infinity') <= $1
		FOR UPDATE SKIP LOCKED)`, now.Add(-time.Minute))
}
