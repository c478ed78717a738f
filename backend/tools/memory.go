package tools

import (
	"context"
	"time"
)

// MemoryHit is one full-text match for memory_search: a Note tab, a
// knowledge article or a Markdown file of the knowledge folder.
type MemoryHit struct {
	Kind      string    `json:"kind"` // "note", "knowledge_article", "knowledge_file"
	ID        string    `json:"id"`   // note id / article id / path relative to the knowledge folder
	Title     string    `json:"title"`
	Snippet   string    `json:"snippet"`
	UpdatedAt time.Time `json:"updated_at"`
}

// MemorySearcher is the full-text index memory_search reads. The notes
// store implements it; the executor only consumes it.
type MemorySearcher interface {
	MemorySearch(ctx context.Context, workspace, query string, limit int) ([]MemoryHit, error)
}
