package board

import "fmt"

// Shelf keeps Done summaries as knowledge articles: the "Session summaries"
// knowledge base of the Knowledge bases screen (the notes store, through a
// small adapter where the app is wired). articleID "" saves a new article;
// an id replaces that article with a new version.
type Shelf interface {
	SaveSummary(articleID, title, body string) (SummaryArticle, error)
}

// ShelfFunc is a Shelf made of one function.
type ShelfFunc func(articleID, title, body string) (SummaryArticle, error)

// SaveSummary calls f.
func (f ShelfFunc) SaveSummary(articleID, title, body string) (SummaryArticle, error) {
	return f(articleID, title, body)
}

var _ Shelf = ShelfFunc(nil)

// SummaryArticle names the article a Done summary was saved as.
type SummaryArticle struct {
	KB      string `json:"kb"`
	Article string `json:"article"`
}

// SummariesBase is the knowledge base's name as the board's words say it
// (notes.SummariesBase).
const SummariesBase = "Session summaries"

// SetShelf makes Done summaries knowledge articles too (nil: files only).
func (b *Board) SetShelf(s Shelf) {
	b.mu.Lock()
	b.shelf = s
	b.mu.Unlock()
}

// shelve saves sum as the article id names ("" for a new one).
func (b *Board) shelve(id string, sum Summary) (SummaryArticle, error) {
	b.mu.Lock()
	s := b.shelf
	b.mu.Unlock()
	if s == nil {
		return SummaryArticle{}, nil
	}
	a, err := s.SaveSummary(id, sum.Title, sum.Markdown())
	if err != nil {
		return SummaryArticle{}, fmt.Errorf("saving the summary to %s: %w", SummariesBase, err)
	}
	return a, nil
}
