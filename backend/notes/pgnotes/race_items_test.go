package pgnotes_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/osfoundry/desktop/backend/notes"
)

// Twenty people on two replicas save the same Record item and the same
// article from version 1 at once: exactly one save wins, every other one
// is told the current version and content, and the winner's text is what
// is stored.
func TestRecordAndArticleSavesAcrossReplicas(t *testing.T) {
	a, b := newReplicas(t)
	ctx := context.Background()
	if _, err := a.s.CreateWorkspace(ctx, "ws", "Team"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.s.CreateRecordChannel(ctx, "ws", "", "rc", "Bugs"); err != nil {
		t.Fatal(err)
	}
	item, err := a.s.AddRecord(ctx, "rc", "Crash on start", "", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.s.CreateKnowledgeBase(ctx, "ws", "", "kb", "Runbooks"); err != nil {
		t.Fatal(err)
	}
	art, err := a.s.PutArticleAs(ctx, "kb", "", "Deploy", "v1", notes.AuthorPerson)
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu                      sync.Mutex
		recordWins, articleWins []string
		recordSeen, articleSeen = map[int64]bool{}, map[int64]bool{}
		wg                      sync.WaitGroup
	)
	for i := range 20 {
		r := a
		if i%2 == 1 {
			r = b
		}
		title := fmt.Sprintf("edit %02d", i)
		wg.Add(1)
		go func() {
			defer wg.Done()
			rs, err := r.s.SaveRecordAsPerson(ctx, "rc", item.ID, 1, notes.RecordEdit{Title: title})
			if err != nil {
				t.Error(err)
				return
			}
			as, err := r.s.SaveArticleAsPerson(ctx, "kb", art.ID, 1, "Deploy", title)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			if rs.Saved {
				recordWins = append(recordWins, title)
			} else {
				recordSeen[rs.Current.Version] = true
			}
			if as.Saved {
				articleWins = append(articleWins, title)
			} else {
				articleSeen[as.Current.Version] = true
			}
		}()
	}
	wg.Wait()
	if len(recordWins) != 1 || len(articleWins) != 1 {
		t.Fatalf("winners: %d record saves and %d article saves, want one each", len(recordWins), len(articleWins))
	}
	if len(recordSeen) != 1 || !recordSeen[2] || len(articleSeen) != 1 || !articleSeen[2] {
		t.Errorf("losers were shown versions %v (records) and %v (articles), want 2 only", recordSeen, articleSeen)
	}
	got, err := b.s.GetRecord(ctx, "rc", item.ID)
	if err != nil || got.Title != recordWins[0] || got.Version != 2 {
		t.Errorf("stored record %q at version %d (%v), want the winner %q at 2", got.Title, got.Version, err, recordWins[0])
	}
	ga, err := b.s.GetArticle(ctx, "kb", art.ID)
	if err != nil || ga.Body != articleWins[0] || ga.Version != 2 {
		t.Errorf("stored article %q at version %d (%v), want the winner %q at 2", ga.Body, ga.Version, err, articleWins[0])
	}
}
