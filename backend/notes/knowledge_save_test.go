package notes

import (
	"context"
	"reflect"
	"testing"
)

// A write hands back the article as it stored it, from the write itself
// (the team server answers that, when a teammate may have written since).
func TestArticleWritesReturnWhatTheyStored(t *testing.T) {
	f := newFixture(t, Options{})
	ctx := context.Background()
	kb, err := NewKnowledgeBinding(f.s).CreateKnowledgeBase("ws-1", "proj-a", "Runbooks")
	if err != nil {
		t.Fatal(err)
	}
	put, err := f.s.PutArticle(ctx, kb.ID, "", "Deploy", "one")
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.s.GetArticle(ctx, kb.ID, put.ID)
	if err != nil || !reflect.DeepEqual(put, got) {
		t.Fatalf("PutArticle returned %+v; stored %+v (%v)", put, got, err)
	}
	res, err := f.s.SaveArticleAsPerson(ctx, kb.ID, put.ID, put.Version, "Deploy", "two")
	if err != nil || !res.Saved || res.Version != put.Version+1 || res.Article == nil {
		t.Fatalf("save = %+v, %v", res, err)
	}
	if got, err = f.s.GetArticle(ctx, kb.ID, put.ID); err != nil || !reflect.DeepEqual(*res.Article, got) {
		t.Fatalf("saved article in the answer = %+v; stored %+v (%v)", *res.Article, got, err)
	}
	stale, err := f.s.SaveArticleAsPerson(ctx, kb.ID, put.ID, put.Version, "Deploy", "three")
	if err != nil || stale.Saved || stale.Article != nil || stale.Current == nil || stale.Current.Body != "two" {
		t.Fatalf("stale save = %+v, %v; want a conflict carrying the stored article", stale, err)
	}
}
