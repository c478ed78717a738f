package pgnotes

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/osfoundry/desktop/backend/notes"
)

// The full-text documents are written with the rows they index, inside the
// same transaction: an article's by the statement that saves it, a Note's
// at the end of the write that changed it (indexNote). A search on any
// replica then sees exactly what is committed, with no index to rebuild
// and nothing to coordinate between replicas — unlike the desktop, whose
// SQLite index is refreshed lazily by the next search so that writes stay
// a few statements.
//
// The text is prepared in Go the way the desktop's FTS5 index reads it
// (tokenizer unicode61, remove_diacritics 2): diacritics removed, every
// character that is not a letter or a digit a separator. PostgreSQL's
// 'simple' configuration then only lowercases; it has no stop words or
// stemming, like unicode61. (unaccent would need an extension the operator
// may not be allowed to create.)

// maxIndexedBytes bounds the text indexed per Note or article: a tsvector
// holds at most 1 MB, and 256 KiB of even unusual text (every word
// different) stays well below it. Words past it are not found on the
// server.
const maxIndexedBytes = 256 << 10

// searchable folds s for indexing and querying: no diacritics, words of
// letters and digits separated by single spaces.
func searchable(s string) string {
	folded := s
	if !ascii(s) {
		// A transform.Chain keeps state between calls: one per call, as
		// writers index concurrently.
		strip := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
		if f, _, err := transform.String(strip, s); err == nil {
			folded = f
		}
	}
	return strings.Join(strings.FieldsFunc(folded, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }), " ")
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// capText cuts s to at most maxIndexedBytes, on a character boundary.
func capText(s string) string {
	if len(s) <= maxIndexedBytes {
		return s
	}
	cut := maxIndexedBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// docText is the folded title and body a document is built from.
func docText(title, body string) (string, string) {
	return searchable(title), searchable(capText(body))
}

// docExpr builds a document from the folded title ($ti) and body ($bi):
// the title weighs A and the body D, so a word in the title ranks first
// (the desktop weighs them 5:1 in bm25).
func docExpr(ti, bi int) string {
	return fmt.Sprintf(`setweight(to_tsvector('simple', $%d), 'A') || setweight(to_tsvector('simple', $%d), 'D')`, ti, bi)
}

// indexNote rewrites Note id's document from its title and tabs (what
// notes.SearchText makes of them); a Note that is gone has none.
func indexNote(ctx context.Context, q querier, id string) error {
	rows, err := q.Query(ctx, `SELECT n.title, t.id, t.kind, t.title, t.position, t.data
		FROM notes n JOIN note_tabs t ON t.note_id = n.id WHERE n.id = $1 ORDER BY t.position, t.id`, id)
	if err != nil {
		return fmt.Errorf("indexing note %s: %w", id, err)
	}
	var n notes.Note
	for rows.Next() {
		var info notes.TabInfo
		var data string
		if err := rows.Scan(&n.Title, &info.ID, &info.Kind, &info.Title, &info.Position, &data); err != nil {
			rows.Close()
			return fmt.Errorf("indexing note %s: %w", id, err)
		}
		tab, err := notes.DecodeTab(info, data)
		if err != nil {
			rows.Close()
			return fmt.Errorf("indexing note %s: decoding tab %s: %w", id, info.ID, err)
		}
		n.Tabs = append(n.Tabs, tab)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("indexing note %s: %w", id, err)
	}
	if n.Tabs == nil {
		// A Note without tabs (or gone): index its title alone.
		if err := q.QueryRow(ctx, `SELECT title FROM notes WHERE id = $1`, id).Scan(&n.Title); err != nil {
			_, derr := q.Exec(ctx, `DELETE FROM note_search WHERE note_id = $1`, id)
			if derr != nil {
				return fmt.Errorf("indexing note %s: %w", id, derr)
			}
			return nil
		}
	}
	// A sheet cell or attachment decoded from JSON may hold a NUL, which
	// PostgreSQL text cannot; it is no word anyway.
	body := strings.ReplaceAll(capText(notes.SearchText(n)), "\x00", "")
	t, b := docText(n.Title, body)
	if _, err := q.Exec(ctx, `INSERT INTO note_search (note_id, body, doc) VALUES ($1, $2, `+docExpr(3, 4)+`)
		ON CONFLICT (note_id) DO UPDATE SET body = excluded.body, doc = excluded.doc`, id, body, t, b); err != nil {
		return fmt.Errorf("indexing note %s: %w", id, err)
	}
	return nil
}
