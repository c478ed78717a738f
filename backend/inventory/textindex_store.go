package inventory

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"
)

// textMigration is the conversation index: one row per indexed session
// (what was read, and whether it could be) and an FTS5 table whose rowid
// is that row's id. The trigram tokenizer makes a query of three or more
// characters match any substring, case-insensitively.
const textMigration = `
CREATE TABLE inventory_settings (
	name  TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
CREATE TABLE inventory_text_sessions (
	id    INTEGER PRIMARY KEY,
	key   TEXT NOT NULL UNIQUE,
	ident TEXT NOT NULL,
	error TEXT NOT NULL DEFAULT ''
);
CREATE VIRTUAL TABLE inventory_text USING fts5(body, tokenize = 'trigram');`

// identities returns what was indexed of each session (textIdent).
func (t *textIndex) identities(ctx context.Context) (map[string]string, error) {
	rows, err := t.db.QueryContext(ctx, `SELECT key, ident FROM inventory_text_sessions`)
	if err != nil {
		return nil, fmt.Errorf("reading the conversation index: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, fmt.Errorf("reading the conversation index: %w", err)
		}
		out[k] = v
	}
	return out, rows.Err()
}

// save replaces a session's text, in one short transaction so the app's
// other writers wait at most one session.
func (t *textIndex) save(ctx context.Context, s Session, text string, readErr error) error {
	tx, err := t.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("saving the conversation index: %w", err)
	}
	defer tx.Rollback()
	msg := ""
	if readErr != nil {
		msg = cleanText(readErr.Error(), 300)
	}
	var id int64
	err = tx.QueryRowContext(ctx, `INSERT INTO inventory_text_sessions (key, ident, error) VALUES (?, ?, ?)
		ON CONFLICT(key) DO UPDATE SET ident = excluded.ident, error = excluded.error RETURNING id`,
		s.Key, textIdent(s), msg).Scan(&id)
	if err != nil {
		return fmt.Errorf("saving the conversation index: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM inventory_text WHERE rowid = ?`, id); err != nil {
		return fmt.Errorf("saving the conversation index: %w", err)
	}
	if text = strings.ToValidUTF8(text, ""); text != "" {
		if _, err := tx.ExecContext(ctx, `INSERT INTO inventory_text (rowid, body) VALUES (?, ?)`, id, text); err != nil {
			return fmt.Errorf("saving the conversation index: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("saving the conversation index: %w", err)
	}
	return nil
}

// drop removes a session that is no longer listed.
func (t *textIndex) drop(ctx context.Context, key string) error {
	tx, err := t.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("updating the conversation index: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM inventory_text WHERE rowid = (SELECT id FROM inventory_text_sessions WHERE key = ?)`, key); err != nil {
		return fmt.Errorf("updating the conversation index: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM inventory_text_sessions WHERE key = ?`, key); err != nil {
		return fmt.Errorf("updating the conversation index: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("updating the conversation index: %w", err)
	}
	return nil
}

// MinTextQuery is the shortest query the conversation index answers (a
// trigram needs three characters).
const MinTextQuery = 3

// search returns the sessions whose indexed text contains query, at most
// limit, with the words around the first match.
func (t *textIndex) search(ctx context.Context, query string, limit int) ([]TextHit, error) {
	q := strings.TrimSpace(query)
	if t.db == nil || !t.status().On || utf8.RuneCountInString(q) < MinTextQuery {
		return []TextHit{}, nil
	}
	// One FTS5 phrase: with the trigram tokenizer that is a substring.
	phrase := `"` + strings.ReplaceAll(q, `"`, `""`) + `"`
	rows, err := t.db.QueryContext(ctx, `SELECT s.key, snippet(inventory_text, 0, '', '', '…', 64)
		FROM inventory_text JOIN inventory_text_sessions s ON s.id = inventory_text.rowid
		WHERE inventory_text MATCH ? LIMIT ?`, phrase, limit)
	if err != nil {
		return nil, fmt.Errorf("searching the conversations: %w", err)
	}
	defer rows.Close()
	out := []TextHit{}
	for rows.Next() {
		var h TextHit
		if err := rows.Scan(&h.Key, &h.Snippet); err != nil {
			return nil, fmt.Errorf("searching the conversations: %w", err)
		}
		h.Snippet = cleanText(h.Snippet, 200)
		out = append(out, h)
	}
	return out, rows.Err()
}
