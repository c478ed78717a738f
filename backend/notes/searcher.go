package notes

import (
	"context"
	"errors"
	"strings"
	"unicode"

	"github.com/osfoundry/desktop/backend/tools"
)

// Full-text search has one rule and an index per engine. The rule —
// which words a query has, every word first and any word when that finds
// nothing, the default and largest number of hits — lives here; each
// engine's Searcher only matches words: SQLite's FTS5 index on the desktop
// (search.go), PostgreSQL's tsvector documents on the team server
// (pgnotes).

// SearchScope says where a search looks: a workspace's Notes and
// knowledge articles (memory_search; on the desktop also the knowledge
// folder's files), or, when KnowledgeBase is set, that knowledge base's
// articles only (search_knowledge_base).
type SearchScope struct {
	Workspace     string
	KnowledgeBase string
}

// Searcher is an engine's full-text index of Notes and knowledge articles.
type Searcher interface {
	// Search returns at most limit hits in scope, best first. Each word
	// (letters and digits only) matches the beginning of a word, ignoring
	// case and diacritics; a hit has every word when all is true, any of
	// them otherwise. A hit's Snippet marks matches with **.
	Search(ctx context.Context, scope SearchScope, words []string, all bool, limit int) ([]tools.MemoryHit, error)
}

// ErrNoSearch: the store was opened without a full-text index.
var ErrNoSearch = errors.New("full-text search is not available on this store")

// maxSearchWords bounds the words of one query.
const maxSearchWords = 16

// searchWords splits free text into the words a search matches: runs of
// letters and digits, so punctuation in a query is never syntax.
func searchWords(q string) []string {
	words := strings.FieldsFunc(q, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	return words[:min(len(words), maxSearchWords)]
}

// find runs query in scope: every word first, any word when nothing has
// them all.
func (c *core) find(ctx context.Context, scope SearchScope, query string, limit int) ([]tools.MemoryHit, error) {
	if c.search == nil {
		return nil, ErrNoSearch
	}
	words := searchWords(query)
	if len(words) == 0 {
		return []tools.MemoryHit{}, nil
	}
	for _, all := range []bool{true, false} {
		hits, err := c.search.Search(ctx, scope, words, all, limit)
		if err != nil {
			return nil, err
		}
		if len(hits) > 0 || len(words) == 1 {
			if hits == nil {
				hits = []tools.MemoryHit{}
			}
			return hits, nil
		}
	}
	return []tools.MemoryHit{}, nil
}

var _ tools.MemorySearcher = (*Store)(nil)

// MemorySearch implements tools.MemorySearcher: Notes and knowledge
// articles of workspace (plus, on the desktop, the knowledge folder's
// Markdown files).
func (s *Store) MemorySearch(ctx context.Context, workspace, query string, limit int) ([]tools.MemoryHit, error) {
	if limit <= 0 {
		limit = defaultSearchHits
	}
	return s.find(ctx, SearchScope{Workspace: workspace}, query, min(limit, MaxListLimit))
}

// Reindex brings the desktop's full-text index up to date (searches do it
// themselves; the bench calls it to measure a search alone). The team
// server's index is written with every change and needs nothing.
func (s *Store) Reindex(ctx context.Context) error {
	if s.fts == nil {
		return nil
	}
	return s.fts.Reindex(ctx)
}
