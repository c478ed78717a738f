package board

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/osfoundry/desktop/backend/notes"
)

// NotesShelf keeps the board's Done summaries as articles of the notes
// store's "Session summaries" knowledge base. The summary files written
// before that (in knowledge's SummaryDir) are imported once, in the
// background, never in the window's way.
func NotesShelf(s *notes.Store, knowledge string) Shelf {
	go func() {
		if _, err := s.ImportSessionSummaries(context.Background(), filepath.Join(knowledge, SummaryDir)); err != nil {
			fmt.Fprintln(os.Stderr, "osfoundry:", err)
		}
	}()
	return ShelfFunc(func(id, title, body string) (SummaryArticle, error) {
		r, err := s.SaveSessionSummary(context.Background(), "", id, title, body)
		return SummaryArticle{KB: r.KB, Article: r.Article}, err
	})
}
