package notes

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/osfoundry/desktop/backend/store"
)

// A search skips looking for stale rows while nothing changed, yet finds
// what another process (another database handle) wrote since: Notes,
// articles, and deletions.
func TestMemorySearchSeesChangesFromAnotherProcess(t *testing.T) {
	f := newFixture(t, Options{})
	ctx := context.Background()
	other, err := store.Open(filepath.Join(f.dir, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	o, err := Open(other, filepath.Join(f.dir, "knowledge"))
	if err != nil {
		t.Fatal(err)
	}
	count := func(q string) int {
		t.Helper()
		hits, err := f.s.MemorySearch(ctx, "ws-1", q, 10)
		if err != nil {
			t.Fatal(err)
		}
		return len(hits)
	}
	if n := count("zeppelin"); n != 0 {
		t.Fatalf("empty search found %d", n)
	}
	count("checklist") // indexed and clean: the next searches skip the stale-row queries
	if _, err := o.CreateNote(ctx, NewNote{ID: "note-2", Workspace: "ws-1", Title: "Zeppelin hangar", Text: "airship"}); err != nil {
		t.Fatal(err)
	}
	if n := count("zeppelin"); n != 1 {
		t.Fatalf("a Note written by another process is not found (%d hits)", n)
	}
	if _, err := o.CreateKnowledgeBase(ctx, "ws-1", "", "kb-z", "Fleet"); err != nil {
		t.Fatal(err)
	}
	if _, err := o.PutArticle(ctx, "kb-z", "", "Blimps", "zeppelin maintenance"); err != nil {
		t.Fatal(err)
	}
	if n := count("zeppelin"); n != 2 {
		t.Fatalf("an article written by another process is not found (%d hits)", n)
	}
	if _, err := other.Exec(`DELETE FROM notes WHERE id = 'note-2'`); err != nil {
		t.Fatal(err)
	}
	if n := count("zeppelin"); n != 1 {
		t.Fatalf("a Note deleted by another process is still found (%d hits)", n)
	}
}
