package pgnotes

import (
	"context"
	"fmt"
	"strings"

	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/tools"
)

// Search on the server is PostgreSQL's own full-text search: tsvector
// documents with a GIN index, matched by to_tsquery prefix terms and
// ranked by ts_rank. pg_trgm would match any substring, but memory_search
// promises what the desktop's FTS5 index does — words, each matched as the
// beginning of a word, every word before any — and tsvector gives exactly
// that, ranked, with ts_headline for the snippet. websearch_to_tsquery
// cannot express a prefix, and the words come already split (the rule in
// backend/notes), so the query is built from them: only letters and
// digits, quoted, so nothing in it is syntax.

var _ notes.Searcher = (*DB)(nil)

// headline is ts_headline's snippet of the title and body: up to two
// fragments of about a dozen words around matches (a title match and a
// body match both show, as FTS5's snippet picks the better column),
// matches marked ** as the desktop's snippet marks them.
const headline = `StartSel=**, StopSel=**, MaxWords=12, MinWords=4, ShortWord=0, MaxFragments=2, FragmentDelimiter=" … "`

// Search implements notes.Searcher: Notes and articles of a workspace, or
// one knowledge base's articles. There is no knowledge folder on the server
// (it is a desktop's local files).
func (d *DB) Search(ctx context.Context, scope notes.SearchScope, words []string, all bool, limit int) ([]tools.MemoryHit, error) {
	query := tsquery(words, all)
	if query == "" || !storable([]any{scope.Workspace, scope.KnowledgeBase}) {
		return []tools.MemoryHit{}, nil
	}
	match := `to_tsquery('simple', $2)`
	var hits string
	if scope.KnowledgeBase != "" {
		hits = `SELECT 'knowledge_article' AS kind, a.id, a.title, left(a.body, ` + fmt.Sprint(maxIndexedBytes) + `) AS body, a.updated_at,
				ts_rank(a.doc, ` + match + `) AS rank
			FROM knowledge_articles a WHERE a.knowledge_base_id = $1 AND a.doc @@ ` + match
	} else {
		hits = `SELECT 'note' AS kind, n.id, n.title, s.body, n.updated_at, ts_rank(s.doc, ` + match + `) AS rank
			FROM note_search s JOIN notes n ON n.id = s.note_id
			WHERE n.workspace_id = $1 AND s.doc @@ ` + match + `
			UNION ALL
			SELECT 'knowledge_article', a.id, a.title, left(a.body, ` + fmt.Sprint(maxIndexedBytes) + `), a.updated_at, ts_rank(a.doc, ` + match + `)
			FROM knowledge_articles a JOIN knowledge_bases b ON b.id = a.knowledge_base_id
			WHERE b.workspace_id = $1 AND a.doc @@ ` + match
	}
	// The snippet is made for the hits returned only: ts_headline re-reads
	// the whole text.
	rows, err := d.pool.Query(ctx, `WITH hits AS (`+hits+` ORDER BY rank DESC, updated_at DESC, id LIMIT $3)
		SELECT kind, id, title, ts_headline('simple', title || E'\n' || body, `+match+`, $4), updated_at
		FROM hits ORDER BY rank DESC, updated_at DESC, id`, scopeID(scope), query, limit, headline)
	if err != nil {
		return nil, fmt.Errorf("searching: %w", err)
	}
	defer rows.Close()
	out := []tools.MemoryHit{}
	for rows.Next() {
		var h tools.MemoryHit
		var upd string
		if err := rows.Scan(&h.Kind, &h.ID, &h.Title, &h.Snippet, &upd); err != nil {
			return nil, fmt.Errorf("searching: %w", err)
		}
		h.UpdatedAt = notes.ParseStoredTime(upd)
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("searching: %w", err)
	}
	return out, nil
}

func scopeID(s notes.SearchScope) string {
	if s.KnowledgeBase != "" {
		return s.KnowledgeBase
	}
	return s.Workspace
}

// tsquery is words as prefix terms ('word':*), folded like the documents,
// joined by & (all) or | (any); "" when no word is left.
func tsquery(words []string, all bool) string {
	var terms []string
	for _, w := range words {
		for _, f := range strings.Fields(searchable(w)) {
			terms = append(terms, "'"+strings.ToLower(f)+"':*")
		}
	}
	join := " | "
	if all {
		join = " & "
	}
	return strings.Join(terms, join)
}
