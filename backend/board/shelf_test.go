package board

import (
	"errors"
	"strings"
	"testing"
)

type fakeShelf struct {
	saves  []string // "id|title"
	bodies []string
	err    error
}

func (f *fakeShelf) SaveSummary(id, title, body string) (SummaryArticle, error) {
	if f.err != nil {
		return SummaryArticle{}, f.err
	}
	f.saves = append(f.saves, id+"|"+title)
	f.bodies = append(f.bodies, body)
	return SummaryArticle{KB: "kb_sum", Article: "art_1"}, nil
}

// Ending a session saves its summary as a knowledge article too, and its
// Done card links to it and says where it is.
func TestEndSavesSummaryToKnowledge(t *testing.T) {
	b := New(t.TempDir(), nil)
	shelf := &fakeShelf{}
	b.SetShelf(shelf)
	b.Add("terminal", newFake(Idle))
	if _, err := b.End("terminal/p-1"); err != nil {
		t.Fatal(err)
	}
	if len(shelf.saves) != 1 || shelf.saves[0] != "|fix the login bug" || !strings.Contains(shelf.bodies[0], "# fix the login bug") {
		t.Fatalf("saved %v", shelf.saves)
	}
	var card Card
	for _, c := range b.Cards() {
		if c.Key == "terminal/p-1" {
			card = c
		}
	}
	if card.State != Done || card.SummaryKB != "kb_sum" || card.SummaryArticle != "art_1" {
		t.Fatalf("card %+v", card)
	}
	if card.Why != "Ended by you — its summary is in Session summaries" {
		t.Fatalf("why %q", card.Why)
	}
}

// A knowledge store that refuses the article does not hide that the session
// ended and its file is saved.
func TestEndSaysWhenKnowledgeRefuses(t *testing.T) {
	b := New(t.TempDir(), nil)
	b.SetShelf(&fakeShelf{err: errors.New("database is locked")})
	src := newFake(Idle)
	b.Add("terminal", src)
	path, err := b.End("terminal/p-1")
	if err == nil || path == "" || !strings.Contains(err.Error(), "but not to Session summaries") || len(src.ended) != 1 {
		t.Fatalf("path %q err %v ended %v", path, err, src.ended)
	}
}
