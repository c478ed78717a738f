package notes

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/store"
)

func TestKnowledgeBindingCreateEditRenameDeleteSearch(t *testing.T) {
	f := newFixture(t, Options{})
	b := NewKnowledgeBinding(f.s)
	kb, err := b.CreateKnowledgeBase("ws-1", "proj-a", "Support answers")
	if err != nil {
		t.Fatal(err)
	}
	o, err := b.Overview()
	if err != nil {
		t.Fatal(err)
	}
	if len(o.KnowledgeBases) != 1 || o.KnowledgeBases[0].ID != kb.ID || o.KnowledgeBases[0].Project != "proj-a" {
		t.Fatalf("overview knowledge bases = %+v", o.KnowledgeBases)
	}
	a, err := b.CreateArticle(kb.ID, "Refunds", "Refunds are paid within **14 days**.")
	if err != nil {
		t.Fatal(err)
	}
	if a.Version != 1 || a.UpdatedBy != AuthorPerson {
		t.Fatalf("new article = %+v, want version 1 by %q", a, AuthorPerson)
	}
	// The tool an agent calls finds what the person wrote.
	r := f.call(ToolSearchKnowledgeBase, map[string]any{"knowledge_base_id": kb.ID, "query": "refunds"})
	if r.IsError || !strings.Contains(r.Text, a.ID) {
		t.Fatalf("search_knowledge_base = %s", r.Text)
	}
	hits, err := b.Search(kb.ID, "refunds days")
	if err != nil || len(hits) != 1 || hits[0].ArticleID != a.ID {
		t.Fatalf("Search = %+v, %v", hits, err)
	}

	// Save (rename + edit) at the right version; a stale version is refused
	// and carries the article as it is now.
	s, err := b.SaveArticle(kb.ID, a.ID, 1, "Refund policy", "Refunds are paid within 30 days.")
	if err != nil || !s.Saved || s.Version != 2 {
		t.Fatalf("save = %+v, %v", s, err)
	}
	// Another handle on the same database (a command, another process) writes.
	other := reopen(t, f)
	if _, err := other.PutArticleAs(context.Background(), kb.ID, a.ID, "Refund policy", "Agent text", AuthorCommandLine); err != nil {
		t.Fatal(err)
	}
	stale, err := b.SaveArticle(kb.ID, a.ID, 2, "Refund policy", "Person text")
	if err != nil || stale.Saved || stale.Current == nil || stale.Current.Body != "Agent text" || stale.Version != 3 {
		t.Fatalf("stale save = %+v, %v", stale, err)
	}
	got, err := b.GetArticle(kb.ID, a.ID)
	if err != nil || got.Body != "Agent text" || got.UpdatedBy != AuthorCommandLine {
		t.Fatalf("after a refused save = %+v, %v", got, err)
	}
	stamp1, _ := b.Stamp(kb.ID)
	if _, err := b.SaveArticle(kb.ID, a.ID, 3, "Refund policy", "Person text"); err != nil {
		t.Fatal(err)
	}
	stamp2, _ := b.Stamp(kb.ID)
	if stamp1 == stamp2 {
		t.Fatal("the stamp did not move on a save")
	}

	// Bad input: an oversized article and an empty title are refused clearly.
	if _, err := b.CreateArticle(kb.ID, "Huge", strings.Repeat("x", MaxTextBytes+1)); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "at most") {
		t.Fatalf("oversized article: %v", err)
	}
	if _, err := b.SaveArticle(kb.ID, a.ID, 4, "  ", "x"); !errors.Is(err, ErrInvalid) {
		t.Fatalf("empty title: %v", err)
	}

	list, err := b.Articles(kb.ID)
	if err != nil || len(list) != 1 || list[0].Title != "Refund policy" || list[0].Body != "" {
		t.Fatalf("articles = %+v, %v", list, err)
	}
	if err := b.DeleteArticle(kb.ID, a.ID); err != nil {
		t.Fatal(err)
	}
	if err := b.DeleteArticle(kb.ID, a.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
	r = f.call(ToolSearchKnowledgeBase, map[string]any{"knowledge_base_id": kb.ID, "query": "refunds"})
	var res struct {
		Articles []KBHit `json:"articles"`
	}
	if err := json.Unmarshal([]byte(r.Text), &res); err != nil || len(res.Articles) != 0 {
		t.Fatalf("search after delete = %s", r.Text)
	}
	if _, err := b.CreateKnowledgeBase("ws-1", "no-such-project", "X"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown project: %v", err)
	}
}

// reopen opens a second Store over the fixture's database file, as another
// process would.
func reopen(t *testing.T, f *fixture) *Store {
	t.Helper()
	db, err := store.Open(filepath.Join(f.dir, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s, err := Open(db, "")
	if err != nil {
		t.Fatal(err)
	}
	return s
}
