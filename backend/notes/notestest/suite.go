// Package notestest is the store test suite every notes.Backend must pass:
// the desktop's SQLite store and the team server's PostgreSQL store
// (pgnotes). It checks what the rules in backend/notes rely on — a write
// transaction that commits all or nothing, conditional updates that refuse
// a stale version, idempotency keys kept per workspace, ErrNotFound for a
// missing row, and the documented orders — through the interface only.
//
// Only tests import it; nothing that ships does.
package notestest

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/notes"
)

// RunStoreSuite runs every check against a fresh, empty, migrated backend
// from newBackend for each subtest.
func RunStoreSuite(t *testing.T, newBackend func(t *testing.T) notes.Backend) {
	for _, c := range []struct {
		name string
		run  func(t *testing.T, b notes.Backend)
	}{
		{"keys replay and stay per workspace", keys},
		{"a failed write leaves nothing", rollback},
		{"note version compare refuses a stale version", noteCAS},
		{"tabs keep their order and contents", tabs},
		{"record items compare versions and keep order", records},
		{"articles compare versions and list newest first", articles},
		{"drafts replace and list oldest first", drafts},
		{"bases and record items delete once", deletes},
		{"missing rows are ErrNotFound", notFound},
		{"places locate and move items", places},
		{"ids no row can have are not found", oddIDs},
		{"text that cannot be stored is refused", oddText},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t, newBackend(t)) })
	}
}

var (
	ctx = context.Background()
	t0  = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
)

func at(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, b notes.Backend, f func(tx notes.Tx) error) {
	t.Helper()
	must(t, b.Write(ctx, f))
}

// seed makes workspace ws with project p.
func seed(t *testing.T, b notes.Backend) {
	write(t, b, func(tx notes.Tx) error {
		if err := tx.Places().InsertWorkspace(ctx, notes.Workspace{ID: "ws", Name: "Work"}, t0); err != nil {
			return err
		}
		return tx.Places().InsertProject(ctx, notes.Project{ID: "p", Workspace: "ws", Name: "Launch"}, t0)
	})
}

func keys(t *testing.T, b notes.Backend) {
	k := notes.StoredKey{Tool: "edit_note_tab", ArgsHash: "h1", Result: `{"version":2}`}
	write(t, b, func(tx notes.Tx) error { return tx.Keys().InsertKey(ctx, "ws", "key-0001", k, t0) })
	got, err := b.Pool().Keys().Key(ctx, "ws", "key-0001")
	must(t, err)
	if got != k {
		t.Fatalf("replayed key = %+v, want %+v", got, k)
	}
	if _, err := b.Pool().Keys().Key(ctx, "other", "key-0001"); !errors.Is(err, notes.ErrNotFound) {
		t.Fatalf("the key of another workspace: err = %v, want ErrNotFound", err)
	}
	err = b.Write(ctx, func(tx notes.Tx) error { return tx.Keys().InsertKey(ctx, "ws", "key-0001", k, t0) })
	if err == nil {
		t.Fatal("a second write under the same key in the same workspace was accepted")
	}
}

func rollback(t *testing.T, b notes.Backend) {
	seed(t, b)
	boom := errors.New("boom")
	err := b.Write(ctx, func(tx notes.Tx) error {
		if err := tx.Notes().InsertNote(ctx, notes.NoteInfo{ID: "n1", Workspace: "ws", Title: "Plan", Version: 1}, t0); err != nil {
			return err
		}
		if err := tx.Keys().InsertKey(ctx, "ws", "key-0002", notes.StoredKey{Tool: "x", ArgsHash: "h", Result: "{}"}, t0); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Write returned %v, want the callback's error", err)
	}
	if _, err := b.Pool().Notes().Note(ctx, "n1"); !errors.Is(err, notes.ErrNotFound) {
		t.Fatalf("the Note of a rolled-back write: err = %v, want ErrNotFound", err)
	}
	if _, err := b.Pool().Keys().Key(ctx, "ws", "key-0002"); !errors.Is(err, notes.ErrNotFound) {
		t.Fatalf("the key of a rolled-back write: err = %v, want ErrNotFound", err)
	}
}

func noteCAS(t *testing.T, b notes.Backend) {
	seed(t, b)
	write(t, b, func(tx notes.Tx) error {
		return tx.Notes().InsertNote(ctx, notes.NoteInfo{ID: "n1", Workspace: "ws", Project: "p", Title: "Plan", Version: 1}, t0)
	})
	var first, stale bool
	write(t, b, func(tx notes.Tx) error {
		var err error
		if first, err = tx.Notes().SetNoteVersionIf(ctx, "n1", 1, 2, at(1)); err != nil {
			return err
		}
		stale, err = tx.Notes().SetNoteVersionIf(ctx, "n1", 1, 3, at(2))
		return err
	})
	if !first || stale {
		t.Fatalf("SetNoteVersionIf: first = %v (want true), stale = %v (want false)", first, stale)
	}
	n, err := b.Pool().Notes().Note(ctx, "n1")
	must(t, err)
	if n.Version != 2 || !n.UpdatedAt.Equal(at(1)) || n.Project != "p" {
		t.Fatalf("after one write: %+v, want version 2 at %v in project p", n, at(1))
	}
}

func tabs(t *testing.T, b notes.Backend) {
	seed(t, b)
	write(t, b, func(tx notes.Tx) error {
		if err := tx.Notes().InsertNote(ctx, notes.NoteInfo{ID: "n1", Workspace: "ws", Title: "Plan", Version: 1}, t0); err != nil {
			return err
		}
		for i, id := range []string{"t-b", "t-a"} {
			tab := notes.TabInfo{ID: id, Kind: notes.KindText, Title: id, Position: i, Version: 1}
			if err := tx.Notes().InsertTab(ctx, "n1", tab, "text of "+id, t0); err != nil {
				return err
			}
		}
		return nil
	})
	count, last, err := b.Pool().Notes().TabStats(ctx, "n1")
	must(t, err)
	if count != 2 || last != 1 {
		t.Fatalf("TabStats = %d, %d; want 2, 1", count, last)
	}
	write(t, b, func(tx notes.Tx) error { return tx.Notes().UpdateTab(ctx, "t-a", "new", 2, at(1)) })
	var got []notes.Tab
	must(t, b.Snapshot(ctx, func(tx notes.Tx) error {
		var err error
		got, err = tx.Notes().TabContents(ctx, "n1")
		return err
	}))
	if len(got) != 2 || got[0].ID != "t-b" || got[1].ID != "t-a" || *got[1].Text != "new" || got[1].Version != 2 {
		t.Fatalf("tabs in position order with the update: %+v", got)
	}
	tr, err := b.Pool().Notes().TabRow(ctx, "t-a", false)
	must(t, err)
	if tr.NoteID != "n1" || tr.Workspace != "ws" || tr.NoteVersion != 1 || tr.Data != "" {
		t.Fatalf("TabRow without data = %+v", tr)
	}
	if tr, _ = b.Pool().Notes().TabRow(ctx, "t-a", true); tr.Data != "new" {
		t.Fatalf("TabRow with data: data = %q, want %q", tr.Data, "new")
	}
}

func records(t *testing.T, b notes.Backend) {
	seed(t, b)
	rows := b.Pool().Records()
	must(t, rows.InsertChannel(ctx, notes.RecordChannel{ID: "rc", Workspace: "ws", Name: "Bugs"}, []string{"Open", "Fixed"}, t0))
	must(t, rows.InsertChannel(ctx, notes.RecordChannel{ID: "rc2", Workspace: "ws", Project: "p", Name: "Asks"}, nil, t0))
	for i, id := range []string{"r2", "r1"} {
		it := notes.RecordItem{ID: id, Channel: "rc", Title: id, Status: "Open", Fields: map[string]any{"n": float64(i)}, Version: 1}
		must(t, rows.InsertItem(ctx, it, at(i)))
	}
	st, err := rows.Statuses(ctx, "rc")
	must(t, err)
	none, err := rows.Statuses(ctx, "rc2")
	must(t, err)
	if !reflect.DeepEqual(st, []string{"Open", "Fixed"}) || len(none) != 0 || none == nil {
		t.Fatalf("statuses = %q and %#v; want [Open Fixed] and an empty list", st, none)
	}
	it, err := rows.Item(ctx, "rc", "r2")
	must(t, err)
	it.Status, it.Version = "Fixed", 2
	var ok, stale bool
	write(t, b, func(tx notes.Tx) error {
		var err error
		if ok, err = tx.Records().UpdateItemIfVersion(ctx, it, 1, at(5)); err != nil {
			return err
		}
		stale, err = tx.Records().UpdateItemIfVersion(ctx, it, 1, at(6))
		return err
	})
	if !ok || stale {
		t.Fatalf("UpdateItemIfVersion: first = %v (want true), stale = %v (want false)", ok, stale)
	}
	items, err := rows.Items(ctx, "rc")
	must(t, err)
	if len(items) != 2 || items[0].ID != "r2" || items[0].Status != "Fixed" || items[0].Fields["n"] != float64(0) {
		t.Fatalf("Items oldest first = %+v", items)
	}
	recent, err := rows.RecentItems(ctx, "rc", "Open", 10)
	must(t, err)
	if len(recent) != 1 || recent[0].ID != "r1" {
		t.Fatalf("RecentItems with status Open = %+v, want r1 only", recent)
	}
	if recent, _ = rows.RecentItems(ctx, "rc", "", 1); len(recent) != 1 || recent[0].ID != "r2" {
		t.Fatalf("RecentItems limit 1 = %+v, want r2 (changed last)", recent)
	}
	cs, err := rows.Channels(ctx, "ws")
	must(t, err)
	if len(cs) != 2 || cs[0].Name != "Asks" || cs[0].Project != "p" || cs[1].Project != "" {
		t.Fatalf("Channels by name = %+v", cs)
	}
}

func articles(t *testing.T, b notes.Backend) {
	seed(t, b)
	rows := b.Pool().Knowledge()
	must(t, rows.InsertBase(ctx, notes.KnowledgeBase{ID: "kb", Workspace: "ws", Name: "Runbooks"}, t0))
	must(t, rows.PutArticle(ctx, "kb", "a1", "Deploy", "one", t0))
	must(t, rows.PutArticle(ctx, "kb", "a2", "Rollback", "two", at(1)))
	must(t, rows.PutArticle(ctx, "kb", "a1", "Deploy", "one, again", at(2)))
	a1, err := rows.Article(ctx, "kb", "a1")
	must(t, err)
	if a1.Version != 2 || a1.Body != "one, again" {
		t.Fatalf("a replaced article = %+v, want version 2 with the new body", a1)
	}
	a1.Body, a1.Version, a1.UpdatedBy = "three", 3, "you"
	saved, err := rows.UpdateArticleIfVersion(ctx, a1, 2, at(3))
	must(t, err)
	stale, err := rows.UpdateArticleIfVersion(ctx, a1, 2, at(4))
	must(t, err)
	if !saved || stale {
		t.Fatalf("UpdateArticleIfVersion: first = %v (want true), stale = %v (want false)", saved, stale)
	}
	list, err := rows.Articles(ctx, "kb")
	must(t, err)
	if len(list) != 2 || list[0].ID != "a1" || list[0].Body != "" || list[0].UpdatedBy != "you" {
		t.Fatalf("Articles newest first without bodies = %+v", list)
	}
	n, sum, newest, err := rows.ArticleStats(ctx, "kb")
	must(t, err)
	if n != 2 || sum != 4 || !newest.Equal(at(3)) {
		t.Fatalf("ArticleStats = %d, %d, %v; want 2, 4, %v", n, sum, newest, at(3))
	}
	gone, err := rows.DeleteArticle(ctx, "kb", "a2")
	must(t, err)
	again, err := rows.DeleteArticle(ctx, "kb", "a2")
	must(t, err)
	if !gone || again {
		t.Fatalf("DeleteArticle: first = %v (want true), again = %v (want false)", gone, again)
	}
}

func deletes(t *testing.T, b notes.Backend) {
	seed(t, b)
	kbs, recs := b.Pool().Knowledge(), b.Pool().Records()
	must(t, kbs.InsertBase(ctx, notes.KnowledgeBase{ID: "kb", Workspace: "ws", Name: "Runbooks"}, t0))
	must(t, kbs.InsertBase(ctx, notes.KnowledgeBase{ID: "kb2", Workspace: "ws", Name: "Stays"}, t0))
	must(t, kbs.PutArticle(ctx, "kb", "a1", "Deploy", "one", t0))
	must(t, kbs.PutArticle(ctx, "kb2", "a2", "Rollback", "two", t0))
	gone, err := kbs.DeleteBase(ctx, "kb")
	must(t, err)
	again, err := kbs.DeleteBase(ctx, "kb")
	must(t, err)
	if !gone || again {
		t.Fatalf("DeleteBase: first = %v (want true), again = %v (want false)", gone, again)
	}
	if _, err := kbs.Article(ctx, "kb", "a1"); !errors.Is(err, notes.ErrNotFound) {
		t.Fatalf("an article of a deleted base: %v, want ErrNotFound", err)
	}
	if left, err := kbs.Bases(ctx, "ws"); err != nil || len(left) != 1 || left[0].ID != "kb2" {
		t.Fatalf("bases after a delete = %+v %v, want kb2 only", left, err)
	}
	if _, err := kbs.Article(ctx, "kb2", "a2"); err != nil {
		t.Fatalf("another base's article after a delete: %v", err)
	}
	must(t, recs.InsertChannel(ctx, notes.RecordChannel{ID: "rc", Workspace: "ws", Name: "Bugs"}, nil, t0))
	must(t, recs.InsertItem(ctx, notes.RecordItem{ID: "r1", Channel: "rc", Title: "one", Fields: map[string]any{}, Version: 1}, t0))
	must(t, recs.InsertItem(ctx, notes.RecordItem{ID: "r2", Channel: "rc", Title: "two", Fields: map[string]any{}, Version: 1}, t0))
	wrong, err := recs.DeleteItem(ctx, "other", "r1")
	must(t, err)
	gone, err = recs.DeleteItem(ctx, "rc", "r1")
	must(t, err)
	again, err = recs.DeleteItem(ctx, "rc", "r1")
	must(t, err)
	if wrong || !gone || again {
		t.Fatalf("DeleteItem: other channel = %v (want false), first = %v (want true), again = %v (want false)", wrong, gone, again)
	}
	if items, err := recs.Items(ctx, "rc"); err != nil || len(items) != 1 || items[0].ID != "r2" {
		t.Fatalf("items after a delete = %+v %v, want r2 only", items, err)
	}
}

func drafts(t *testing.T, b notes.Backend) {
	rows := b.Pool().Drafts()
	must(t, rows.PutDraft(ctx, notes.Draft{OwnerID: "n2", ItemID: "t", Data: `{"a":1}`, SavedAt: "2025-03-01T12:00:02Z"}))
	must(t, rows.PutDraft(ctx, notes.Draft{OwnerID: "n1", ItemID: "t", Data: `{"a":1}`, SavedAt: "2025-03-01T12:00:01Z"}))
	must(t, rows.PutDraft(ctx, notes.Draft{OwnerID: "n2", ItemID: "t", Data: `{"a":2}`, SavedAt: "2025-03-01T12:00:03Z"}))
	list, err := rows.Drafts(ctx)
	must(t, err)
	if len(list) != 2 || list[0].OwnerID != "n1" || list[1].Data != `{"a":2}` {
		t.Fatalf("Drafts oldest first, replaced = %+v", list)
	}
	must(t, rows.DeleteDraft(ctx, "n2", "t"))
	must(t, rows.DeleteDraft(ctx, "n2", "t")) // none is not an error
	if _, err := rows.Draft(ctx, "n2", "t"); !errors.Is(err, notes.ErrNotFound) {
		t.Fatalf("a deleted draft: err = %v, want ErrNotFound", err)
	}
}

func notFound(t *testing.T, b notes.Backend) {
	tx := b.Pool()
	for name, err := range map[string]error{
		"note":           func() error { _, err := tx.Notes().Note(ctx, "x"); return err }(),
		"tab":            func() error { _, err := tx.Notes().TabRow(ctx, "x", true); return err }(),
		"project":        func() error { _, err := tx.Places().Project(ctx, "x"); return err }(),
		"workspace":      tx.Places().WorkspaceExists(ctx, "x"),
		"record channel": func() error { _, err := tx.Records().Channel(ctx, "x"); return err }(),
		"record item":    func() error { _, err := tx.Records().Item(ctx, "x", "y"); return err }(),
		"knowledge base": func() error { _, err := tx.Knowledge().Base(ctx, "x"); return err }(),
		"article":        func() error { _, err := tx.Knowledge().Article(ctx, "x", "y"); return err }(),
		"located item":   func() error { _, err := tx.Places().Locate(ctx, notes.ResourceNote, "x"); return err }(),
	} {
		if !errors.Is(err, notes.ErrNotFound) {
			t.Errorf("a missing %s: err = %v, want ErrNotFound", name, err)
		}
	}
}

func places(t *testing.T, b notes.Backend) {
	seed(t, b)
	rows := b.Pool()
	must(t, rows.Places().InsertWorkspace(ctx, notes.Workspace{ID: "ws0", Name: "Archive"}, t0))
	must(t, rows.Notes().InsertNote(ctx, notes.NoteInfo{ID: "n1", Workspace: "ws", Title: "Plan", Version: 1}, t0))
	must(t, rows.Knowledge().InsertBase(ctx, notes.KnowledgeBase{ID: "kb", Workspace: "ws", Project: "p", Name: "Runbooks"}, t0))
	must(t, rows.Places().SetProject(ctx, notes.ResourceNote, "n1", "p"))
	loc, err := rows.Places().Locate(ctx, notes.ResourceNote, "n1")
	must(t, err)
	if loc.Workspace != "ws" || loc.Project != "p" {
		t.Fatalf("Locate after the move = %+v", loc)
	}
	res, err := rows.Places().ProjectResources(ctx, "p")
	must(t, err)
	if len(res) != 2 || res[0].Kind != notes.ResourceKnowledgeBase || res[1].ID != "n1" {
		t.Fatalf("ProjectResources by kind = %+v", res)
	}
	ws, err := rows.Places().Workspaces(ctx)
	must(t, err)
	if len(ws) != 2 || ws[0].Name != "Archive" {
		t.Fatalf("Workspaces by name = %+v", ws)
	}
	if err := rows.Places().SetProject(ctx, notes.ResourceNote, "missing", ""); !errors.Is(err, notes.ErrNotFound) {
		t.Fatalf("moving a missing Note: err = %v, want ErrNotFound", err)
	}
}

// oddIDs: a caller may send any id, including a NUL character or invalid
// UTF-8, which PostgreSQL cannot even compare; such an id is simply not
// found, as on SQLite, and a write naming it matches nothing.
func oddIDs(t *testing.T, b notes.Backend) {
	seed(t, b)
	tx := b.Pool()
	for _, id := range []string{"n\x00", "n\xff"} {
		for name, err := range map[string]error{
			"note":    func() error { _, err := tx.Notes().Note(ctx, id); return err }(),
			"tab":     func() error { _, err := tx.Notes().TabRow(ctx, id, true); return err }(),
			"key":     func() error { _, err := tx.Keys().Key(ctx, "ws", id); return err }(),
			"project": func() error { _, err := tx.Places().Project(ctx, id); return err }(),
			"item":    func() error { _, err := tx.Records().Item(ctx, id, id); return err }(),
			"article": func() error { _, err := tx.Knowledge().Article(ctx, id, id); return err }(),
			"located": func() error { _, err := tx.Places().Locate(ctx, notes.ResourceNote, id); return err }(),
			"move":    tx.Places().SetProject(ctx, notes.ResourceNote, id, ""),
		} {
			if !errors.Is(err, notes.ErrNotFound) {
				t.Errorf("%s %q: err = %v, want ErrNotFound", name, id, err)
			}
		}
		if list, err := tx.Notes().Notes(ctx, id, ""); err != nil || len(list) != 0 {
			t.Errorf("Notes(%q) = %v, %v; want none", id, list, err)
		}
		if ok, err := tx.Notes().SetNoteVersionIf(ctx, id, 1, 2, t0); ok || err != nil {
			t.Errorf("SetNoteVersionIf(%q) = %v, %v; want no match", id, ok, err)
		}
		if gone, err := tx.Knowledge().DeleteArticle(ctx, id, id); gone || err != nil {
			t.Errorf("DeleteArticle(%q) = %v, %v; want nothing deleted", id, gone, err)
		}
	}
	// In a write transaction too, and the transaction goes on.
	write(t, b, func(tx notes.Tx) error {
		if _, err := tx.Keys().Key(ctx, "ws", "k\x00"); !errors.Is(err, notes.ErrNotFound) {
			t.Errorf("Key in a write: %v, want ErrNotFound", err)
		}
		return tx.Notes().InsertNote(ctx, notes.NoteInfo{ID: "n1", Workspace: "ws", Title: "Plan", Version: 1}, t0)
	})
	if _, err := b.Pool().Notes().Note(ctx, "n1"); err != nil {
		t.Fatalf("the write after an odd lookup: %v", err)
	}
}

// oddText: the PostgreSQL store refuses text it cannot keep (a NUL
// character, invalid UTF-8) with ErrInvalid instead of a database error;
// SQLite keeps it. Either way the engine never half-writes it.
func oddText(t *testing.T, b notes.Backend) {
	seed(t, b)
	err := b.Write(ctx, func(tx notes.Tx) error {
		return tx.Notes().InsertNote(ctx, notes.NoteInfo{ID: "n1", Workspace: "ws", Title: "Pl\x00an", Version: 1}, t0)
	})
	if err == nil {
		n, gerr := b.Pool().Notes().Note(ctx, "n1")
		if gerr != nil || n.Title != "Pl\x00an" {
			t.Fatalf("an accepted title came back as %q, %v", n.Title, gerr)
		}
		return
	}
	if !errors.Is(err, notes.ErrInvalid) {
		t.Fatalf("refusing a NUL title: err = %v, want ErrInvalid", err)
	}
}
