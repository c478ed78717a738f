package inventory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// "Search in conversations": an index of the message text of every listed
// session, off until the person turns it on in the screen. It is built on
// its own goroutine (the list never waits for it), one session at a time
// (memory is bounded by one session's capped text), into the app's SQLite
// database (an FTS5 trigram table, so a query matches any substring the
// way the title search does), and survives restarts; a session is read
// again only when its file or recorded time changed.

// TextCap bounds the message text kept per session: a 2 GB transcript is
// mostly tool output and pasted images, and a search needs the words
// people typed and read, not every byte.
const TextCap = 2 << 20

// passEvery spaces the indexer's passes: a session an agent is writing
// changes every few seconds, and reading a big transcript again on each
// change would keep a core busy; its new text is found a little later.
const passEvery = 30 * time.Second

// textPages bounds how many transcript pages (of 200 rows, each row at
// most rowTextCap) one session costs the indexer.
const textPages = 1000

// ErrNoTextIndex means the index has no database to live in (a run with
// --home keeps nothing).
var ErrNoTextIndex = errors.New("search in conversations needs the app's database")

// TextStatus is what the screen shows of the index.
type TextStatus struct {
	On      bool   `json:"on"`
	Running bool   `json:"running"`
	Indexed int    `json:"indexed"` // sessions whose conversation is indexed
	Total   int    `json:"total"`
	Skipped int    `json:"skipped"` // unreadable sessions (torn, vanished)
	Current string `json:"current,omitempty"`
	Error   string `json:"error,omitempty"`
}

// TextHit is one session whose conversation matched, with the words
// around the first match.
type TextHit struct {
	Key     string `json:"key"`
	Snippet string `json:"snippet"`
}

type textIndex struct {
	db    *sql.DB
	svc   *Service
	emit  func(TextStatus)
	every time.Duration // passEvery; tests shorten it

	mu     sync.Mutex
	st     TextStatus
	cancel context.CancelFunc
	done   chan struct{}
	kick   chan struct{}
	last   time.Time // last progress emitted
}

func newTextIndex(ctx context.Context, db *sql.DB, svc *Service) *textIndex {
	t := &textIndex{db: db, svc: svc, kick: make(chan struct{}, 1), every: passEvery}
	if db == nil {
		return t
	}
	var v string
	if db.QueryRowContext(ctx, `SELECT value FROM inventory_settings WHERE name = 'text_search'`).Scan(&v) == nil {
		t.st.On = v == "on"
	}
	t.st.Indexed, t.st.Total = t.counts(ctx)
	return t
}

func (t *textIndex) status() TextStatus {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.st
}

func (t *textIndex) counts(ctx context.Context) (indexed, total int) {
	t.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM inventory_text_sessions`).Scan(&indexed) //nolint:errcheck // 0 on error
	return indexed, len(t.svc.ix.snapshot())
}

// set turns the index on (and starts building it) or off (and drops it).
func (t *textIndex) set(ctx context.Context, on bool) (TextStatus, error) {
	if t.db == nil {
		return t.status(), ErrNoTextIndex
	}
	v := map[bool]string{true: "on", false: "off"}[on]
	if _, err := t.db.ExecContext(ctx, `INSERT INTO inventory_settings (name, value) VALUES ('text_search', ?)
		ON CONFLICT(name) DO UPDATE SET value = excluded.value`, v); err != nil {
		return t.status(), fmt.Errorf("saving the search-in-conversations setting: %w", err)
	}
	t.stop()
	t.mu.Lock()
	t.st = TextStatus{On: on}
	if on {
		// Until the first pass reports: everything is still to read.
		t.st.Running, t.st.Total = true, len(t.svc.ix.snapshot())
	}
	t.mu.Unlock()
	if !on {
		if _, err := t.db.ExecContext(ctx, `DELETE FROM inventory_text`); err != nil {
			return t.status(), fmt.Errorf("dropping the conversation index: %w", err)
		}
		if _, err := t.db.ExecContext(ctx, `DELETE FROM inventory_text_sessions`); err != nil {
			return t.status(), fmt.Errorf("dropping the conversation index: %w", err)
		}
		t.progress(true)
		return t.status(), nil
	}
	t.start()
	return t.status(), nil
}

// start runs the indexer when the index is on and it is not running.
func (t *textIndex) start() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.db == nil || !t.st.On || t.cancel != nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.cancel, t.done = cancel, make(chan struct{})
	go t.loop(ctx, t.done)
}

func (t *textIndex) stop() {
	t.mu.Lock()
	cancel, done := t.cancel, t.done
	t.cancel, t.done = nil, nil
	t.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
}

// changed asks the indexer for another pass (the list changed).
func (t *textIndex) changed() {
	select {
	case t.kick <- struct{}{}:
	default:
	}
}

func (t *textIndex) loop(ctx context.Context, done chan struct{}) {
	defer close(done)
	for {
		if err := t.pass(ctx); err != nil && ctx.Err() == nil {
			t.mu.Lock()
			t.st.Error = err.Error()
			t.mu.Unlock()
			t.progress(true)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(t.every):
		}
		select {
		case <-ctx.Done():
			return
		case <-t.kick:
		}
	}
}

// pass indexes every session whose identity changed, newest first, and
// drops the ones no longer listed.
func (t *textIndex) pass(ctx context.Context) error {
	sessions := t.svc.ix.snapshot()
	have, err := t.identities(ctx)
	if err != nil {
		return err
	}
	listed := make(map[string]bool, len(sessions))
	var stale []Session
	for _, s := range sessions {
		listed[s.Key] = true
		if have[s.Key] != textIdent(s) {
			stale = append(stale, s)
		}
	}
	t.mu.Lock()
	t.st.Running, t.st.Total, t.st.Indexed, t.st.Error = len(stale) > 0, len(sessions), len(sessions)-len(stale), ""
	t.mu.Unlock()
	t.progress(true)
	for _, s := range stale {
		if err := ctx.Err(); err != nil {
			return err
		}
		t.mu.Lock()
		t.st.Current = s.Title
		t.mu.Unlock()
		text, readErr := t.read(ctx, s)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err := t.save(ctx, s, text, readErr); err != nil {
			return err
		}
		t.mu.Lock()
		t.st.Indexed++
		if readErr != nil {
			t.st.Skipped++
		}
		t.mu.Unlock()
		t.progress(false)
	}
	for k := range have {
		if !listed[k] {
			if err := t.drop(ctx, k); err != nil {
				return err
			}
		}
	}
	t.mu.Lock()
	t.st.Running, t.st.Current = false, ""
	t.mu.Unlock()
	t.progress(true)
	return nil
}

// progress tells the screen, at most four times a second unless final.
func (t *textIndex) progress(final bool) {
	t.mu.Lock()
	if !final && time.Since(t.last) < 250*time.Millisecond {
		t.mu.Unlock()
		return
	}
	t.last = time.Now()
	st, emit := t.st, t.emit
	t.mu.Unlock()
	if emit != nil {
		emit(st)
	}
}

// textIdent changes whenever a session's conversation may have.
func textIdent(s Session) string { return fmt.Sprintf("%s|%d|%d", s.Path, s.Bytes, s.UpdatedMs) }

// read collects a session's user and assistant text, page by page, up to
// TextCap. A torn line is a skipped row; an unreadable file is an error
// (the session is recorded as skipped, with no text).
func (t *textIndex) read(ctx context.Context, s Session) (string, error) {
	var b strings.Builder
	cursor := int64(0)
	for range textPages {
		p, err := t.svc.Transcript(ctx, s.Key, cursor, 200)
		if err != nil {
			return b.String(), err
		}
		for _, r := range p.Rows {
			if r.Kind != RowUser && r.Kind != RowAssistant {
				continue
			}
			if b.Len()+len(r.Text)+1 > TextCap {
				return b.String(), nil
			}
			b.WriteString(r.Text)
			b.WriteByte('\n')
		}
		if p.Done || p.Next == cursor {
			break
		}
		cursor = p.Next
	}
	return b.String(), nil
}
