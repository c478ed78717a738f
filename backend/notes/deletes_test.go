package notes

import (
	"context"
	"errors"
	"testing"
)

// The person deletes a knowledge base (its articles go with it) or a
// Record from the window; the team server's conditional deletes remove
// only what is still at the version given and otherwise answer what is
// there now.
func TestDeletesFromTheWindowAndConditionalDeletes(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, Options{})
	kbb := NewKnowledgeBinding(f.s)
	kb, err := kbb.CreateKnowledgeBase("ws-1", "proj-a", "Runbooks")
	if err != nil {
		t.Fatal(err)
	}
	a, err := kbb.CreateArticle(kb.ID, "Deploy", "make deploy")
	if err != nil {
		t.Fatal(err)
	}
	if err := kbb.DeleteKnowledgeBase(kb.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.s.GetArticle(ctx, kb.ID, a.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("an article of a deleted base: %v", err)
	}
	if err := kbb.DeleteKnowledgeBase(kb.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("deleting it again: %v, want ErrNotFound", err)
	}

	rb := NewRecordsBinding(f.s, nil)
	ch, err := rb.CreateChannel("ws-1", "", "Bugs", nil)
	if err != nil {
		t.Fatal(err)
	}
	it, err := rb.AddItem(ch.ID, "Crash", "", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := rb.DeleteItem(ch.ID, it.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.s.GetRecord(ctx, ch.ID, it.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a deleted Record: %v", err)
	}

	// Conditional: a stale version keeps the item and answers it now.
	it, err = rb.AddItem(ch.ID, "Leak", "", "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := f.s.SaveRecordAsPerson(ctx, ch.ID, it.ID, it.Version, RecordEdit{Title: "Leak", Status: "", Body: "found it"})
	if err != nil || !res.Saved {
		t.Fatalf("edit: %+v %v", res, err)
	}
	gone, err := f.s.DeleteRecordIfVersion(ctx, ch.ID, it.ID, it.Version)
	if err != nil || gone.Saved || gone.Current == nil || gone.Current.Version != res.Version {
		t.Fatalf("a delete at a stale version: %+v %v", gone, err)
	}
	gone, err = f.s.DeleteRecordIfVersion(ctx, ch.ID, it.ID, res.Version)
	if err != nil || !gone.Saved {
		t.Fatalf("a delete at the current version: %+v %v", gone, err)
	}
	if _, err := f.s.DeleteRecordIfVersion(ctx, ch.ID, it.ID, res.Version); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a delete of what is gone: %v, want ErrNotFound", err)
	}

	kb, err = kbb.CreateKnowledgeBase("ws-1", "proj-a", "Policies")
	if err != nil {
		t.Fatal(err)
	}
	a, err = kbb.CreateArticle(kb.ID, "Leave", "30 days")
	if err != nil {
		t.Fatal(err)
	}
	if done, now, err := f.s.DeleteKnowledgeBaseIf(ctx, kb.ID, map[string]int64{}); err != nil || done || len(now) != 1 || now[0].Body != "30 days" {
		t.Fatalf("a base delete that did not know an article: %v %+v %v", done, now, err)
	}
	if del, err := f.s.DeleteArticleIfVersion(ctx, kb.ID, a.ID, a.Version+1); err != nil || del.Saved || del.Current == nil {
		t.Fatalf("an article delete at a stale version: %+v %v", del, err)
	}
	if done, _, err := f.s.DeleteKnowledgeBaseIf(ctx, kb.ID, map[string]int64{a.ID: a.Version}); err != nil || !done {
		t.Fatalf("a base delete that knew every article: %v %v", done, err)
	}
}
