package board

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/store"
)

// ErrNotFinished: only a card in Done or Failed can be cleared off the board.
var ErrNotFinished = errors.New("Only a session in Done or Failed can be cleared. End it first (drag it to Done).")

// record is what the board itself remembers about a session: that the user
// ended it (its card as it was then, in Done, with its summary), and/or
// that the user cleared it off the board. Sources forget ended sessions
// (a closed pane is gone, a cancelled run reads failed); the board does
// not, until the user clears the card.
type record struct {
	card    Card
	endedAt int64 // unix ms; 0 when the user only cleared a finished card
	cleared bool
}

// doneStore keeps the records, in memory and (after Keep) in the database.
type doneStore struct {
	mu   sync.Mutex
	db   *sql.DB
	recs map[string]*record
}

var doneMigrations = []store.Migration{{Version: 1, SQL: `
CREATE TABLE board_done (
	key        TEXT PRIMARY KEY,          -- source/id
	card       TEXT NOT NULL,             -- the card when it ended or was cleared (JSON)
	ended_at   INTEGER NOT NULL DEFAULT 0,
	cleared_at INTEGER NOT NULL DEFAULT 0
);`}}

// Keep makes ended and cleared sessions survive a restart: it applies the
// board's schema to db and loads what was kept.
func (b *Board) Keep(ctx context.Context, db *sql.DB) error {
	if err := store.Migrate(ctx, db, "board", doneMigrations); err != nil {
		return err
	}
	rows, err := db.QueryContext(ctx, `SELECT key, card, ended_at, cleared_at FROM board_done`)
	if err != nil {
		return fmt.Errorf("reading ended sessions: %w", err)
	}
	defer rows.Close()
	recs := map[string]*record{}
	for rows.Next() {
		var key, card string
		var ended, cleared int64
		if err := rows.Scan(&key, &card, &ended, &cleared); err != nil {
			return fmt.Errorf("reading ended sessions: %w", err)
		}
		r := &record{endedAt: ended, cleared: cleared != 0}
		if json.Unmarshal([]byte(card), &r.card) != nil {
			continue // a damaged row only loses that card
		}
		recs[key] = r
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading ended sessions: %w", err)
	}
	b.done.mu.Lock()
	b.done.db = db
	for k, r := range recs {
		b.done.recs[k] = r
	}
	b.done.mu.Unlock()
	b.Changed()
	return nil
}

func (d *doneStore) get(key string) (record, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	r, ok := d.recs[key]
	if !ok {
		return record{}, false
	}
	return *r, true
}

func (d *doneStore) all() map[string]record {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make(map[string]record, len(d.recs))
	for k, r := range d.recs {
		out[k] = *r
	}
	return out
}

// put saves r under key, in memory first so the board shows it even when
// the database write fails (the error is returned for the log).
func (d *doneStore) put(key string, r record) error {
	d.mu.Lock()
	d.recs[key] = &r
	db := d.db
	d.mu.Unlock()
	if db == nil {
		return nil
	}
	card, _ := json.Marshal(r.card)
	var cleared int64
	if r.cleared {
		cleared = time.Now().UnixMilli()
	}
	_, err := db.Exec(`INSERT INTO board_done(key, card, ended_at, cleared_at) VALUES(?,?,?,?)
		ON CONFLICT(key) DO UPDATE SET card = excluded.card, ended_at = excluded.ended_at, cleared_at = excluded.cleared_at`,
		key, string(card), r.endedAt, cleared)
	if err != nil {
		return fmt.Errorf("remembering the ended session: %w", err)
	}
	return nil
}

// apply lays the records over the sources' cards: an ended session reads
// Done with its summary (its source may have dropped it or call it failed),
// a cleared one is left off.
func applyRecords(cards []Card, recs map[string]record) []Card {
	out := cards[:0]
	seen := map[string]bool{}
	for _, c := range cards {
		seen[c.Key] = true
		r, ok := recs[c.Key]
		switch {
		case !ok:
			out = append(out, c)
		case r.cleared:
		case r.endedAt > 0:
			out = append(out, endedCard(r))
		default:
			out = append(out, c)
		}
	}
	for key, r := range recs {
		if !seen[key] && !r.cleared && r.endedAt > 0 {
			out = append(out, endedCard(r))
		}
	}
	return out
}

func endedCard(r record) Card {
	c := r.card
	c.State, c.UpdatedAt, c.CanPause = Done, r.endedAt, false
	return c
}

// Clear takes a finished card (Done or Failed) off the board; the session's
// summary and its source's own records (a chat, a run) are kept.
func (b *Board) Clear(key string) error {
	_, c, err := b.lookup(key)
	if err != nil {
		return err
	}
	if c.State != Done && c.State != Failed {
		return ErrNotFinished
	}
	r, _ := b.done.get(key)
	if r.endedAt == 0 {
		r.card = c
	}
	r.cleared = true
	err = b.done.put(key, r)
	b.Changed()
	return err
}

// ended records that the user ended c (its summary at path, and as art
// in the Session summaries knowledge base when it was saved there).
func (b *Board) ended(c Card, path string, art SummaryArticle) error {
	now := b.now().UnixMilli()
	c.Summary, c.State, c.UpdatedAt = path, Done, now
	c.SummaryKB, c.SummaryArticle = art.KB, art.Article
	c.Why = "Ended by you — its summary is in your knowledge files"
	if art.Article != "" {
		c.Why = "Ended by you — its summary is in " + SummariesBase
	}
	return b.done.put(c.Key, record{card: c, endedAt: now})
}
