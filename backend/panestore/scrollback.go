package panestore

import (
	"bytes"
	"compress/gzip"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/osfoundry/desktop/backend/terminal"
)

// SaveScrollback replaces pane id's saved output with data, bounded to
// terminal.MaxScrollbackBytes (its newest lines). Terminal output
// compresses about tenfold, so a full pane costs a few hundred KiB.
func (s *Store) SaveScrollback(id string, data []byte) error {
	data = terminal.TrimScrollback(data, len(data)+1, terminal.MaxScrollbackBytes)
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if _, err := zw.Write(data); err != nil {
		return fmt.Errorf("compressing the scrollback of pane %s: %w", id, err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("compressing the scrollback of pane %s: %w", id, err)
	}
	if _, err := s.db.Exec(`INSERT INTO pane_scrollback (id, data, saved_at) VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%fZ','now'))
		ON CONFLICT(id) DO UPDATE SET data = excluded.data, saved_at = excluded.saved_at`, id, buf.Bytes()); err != nil {
		return fmt.Errorf("saving the scrollback of pane %s: %w", id, err)
	}
	return nil
}

// LoadScrollback returns pane id's saved output (nil when none). A row that
// does not decompress, or holds more than the bound, is
// terminal.ErrScrollbackDamaged.
func (s *Store) LoadScrollback(id string) ([]byte, time.Time, error) {
	var raw []byte
	var at string
	err := s.db.QueryRow(`SELECT data, saved_at FROM pane_scrollback WHERE id = ?`, id).Scan(&raw, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, time.Time{}, nil
	}
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("reading the scrollback of pane %s: %w", id, err)
	}
	saved, _ := time.Parse("2006-01-02T15:04:05.999Z", at)
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, saved, fmt.Errorf("reading the scrollback of pane %s: %w (%v)", id, terminal.ErrScrollbackDamaged, err)
	}
	data, err := io.ReadAll(io.LimitReader(zr, terminal.MaxScrollbackBytes+1))
	if err == nil && len(data) > terminal.MaxScrollbackBytes {
		err = fmt.Errorf("more than %d bytes", terminal.MaxScrollbackBytes)
	}
	if err != nil {
		return nil, saved, fmt.Errorf("reading the scrollback of pane %s: %w (%v)", id, terminal.ErrScrollbackDamaged, err)
	}
	return data, saved, nil
}

// DeleteScrollback forgets pane id's saved output; "" forgets every pane's
// (the person stopped keeping it).
func (s *Store) DeleteScrollback(id string) error {
	q, args := `DELETE FROM pane_scrollback WHERE id = ?`, []any{id}
	if id == "" {
		q, args = `DELETE FROM pane_scrollback`, nil
	}
	if _, err := s.db.Exec(q, args...); err != nil {
		return fmt.Errorf("deleting saved scrollback: %w", err)
	}
	return nil
}
