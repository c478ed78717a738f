package panestore

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/terminal"
)

func TestRestoreAfterRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "app.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	m := terminal.NewManager(nil)
	m.SetStore(st)
	keep, err := m.Create(terminal.Options{Dir: dir, Argv: []string{"/bin/sh"}})
	if err != nil {
		t.Fatal(err)
	}
	gone, err := m.Create(terminal.Options{Dir: dir, Argv: []string{"/bin/sh", "-c", "sleep 30"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Close(gone.ID); err != nil {
		t.Fatal(err)
	}
	m.CloseAll() // quitting keeps the remembered panes
	db.Close()

	db, err = store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st, _ = Open(context.Background(), db)
	// A pane whose folder disappeared is forgotten with a message.
	st.SavePane(terminal.Spec{ID: "p-lost", Dir: filepath.Join(dir, "removed"), Argv: []string{"/bin/sh"}, Cols: 80, Rows: 24})
	m2 := terminal.NewManager(nil)
	m2.SetStore(st)
	if err := m2.Restore(nil); err == nil {
		t.Fatal("restoring a pane whose folder is gone should report it")
	}
	defer m2.CloseAll()
	list := m2.List()
	if len(list) != 1 || list[0].ID != keep.ID || !reflect.DeepEqual(list[0].Argv, []string{"/bin/sh"}) {
		t.Fatalf("restored panes: %+v, want only %s", list, keep.ID)
	}
	specs, _ := st.LoadPanes()
	if len(specs) != 1 {
		t.Fatalf("the lost pane should be forgotten, store has %+v", specs)
	}
}

// A pane's place in the rail and the conversation its agent reported
// survive a restart; the latest report wins.
func TestPositionAndSessionSurviveARestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "app.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	claude := terminal.Spec{ID: "p-b", Dir: "/w", Argv: []string{"claude"}, Cols: 80, Rows: 24, Position: 1,
		Session: terminal.Session{ID: "old", File: "/h/.claude/projects/-w/old.jsonl"}}
	st.SavePane(terminal.Spec{ID: "p-a", Dir: "/w", Argv: []string{"bash"}, Cols: 80, Rows: 24, Position: 2})
	st.SavePane(claude)
	claude.Session = terminal.Session{ID: "3f2a", File: "/h/.claude/projects/-w/3f2a.jsonl"}
	st.SavePane(claude)
	db.Close()

	db, err = store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st, _ = Open(context.Background(), db)
	got, err := st.LoadPanes()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !reflect.DeepEqual(got[0], claude) || got[1].ID != "p-a" || got[1].Position != 2 {
		t.Fatalf("loaded %+v, want %+v first (position 1) then p-a", got, claude)
	}
}

// The New pane form offers the folder the last pane was started in first,
// also after a restart; folders that were removed are not offered.
func TestNewPaneRemembersTheLastFolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "app.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st, err := Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	a, b, gone := t.TempDir(), t.TempDir(), filepath.Join(t.TempDir(), "gone")
	m := terminal.NewManager(nil)
	m.SetStore(st)
	defer m.CloseAll()
	svc := terminal.NewService(m, nil)
	st.UseFolder(gone)
	for _, dir := range []string{a, b, a} {
		if _, err := svc.Create(terminal.CreateRequest{Dir: dir, Command: "/bin/sh"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.Create(terminal.CreateRequest{Dir: filepath.Join(b, "missing"), Command: "/bin/sh"}); err == nil {
		t.Fatal("a pane in a missing folder should not start")
	}
	m2 := terminal.NewManager(nil)
	m2.SetStore(st)
	again := terminal.NewService(m2, nil)
	if got := again.Folders(); !reflect.DeepEqual(got, []string{a, b}) {
		t.Fatalf("folders offered = %v, want the last one first: %v", got, []string{a, b})
	}
}

// A renamed pane keeps its name through a quit and the next start's
// restore; renaming to "" gives it back its folder's name.
func TestRenameSurvivesARestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "app.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	m := terminal.NewManager(nil)
	m.SetStore(st)
	a, err := m.Create(terminal.Options{Dir: t.TempDir(), Argv: []string{"/bin/sh"}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.Create(terminal.Options{Dir: t.TempDir(), Argv: []string{"/bin/sh"}})
	if err != nil {
		t.Fatal(err)
	}
	if info, err := m.Rename(a.ID, "  checkout\tfix \x1b "); err != nil || info.Name != "checkout fix" {
		t.Fatalf("rename: %+v %v, want the name %q", info, err, "checkout fix")
	}
	m.Rename(b.ID, "tmp")
	if _, err := m.Rename(b.ID, ""); err != nil {
		t.Fatal(err)
	}
	m.CloseAll()
	db.Close()

	db, err = store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st, _ = Open(context.Background(), db)
	m2 := terminal.NewManager(nil)
	m2.SetStore(st)
	if err := m2.Restore(nil); err != nil {
		t.Fatal(err)
	}
	defer m2.CloseAll()
	names := map[string]string{}
	for _, in := range m2.List() {
		names[in.ID] = in.Name
	}
	if names[a.ID] != "checkout fix" || names[b.ID] != "" || len(names) != 2 {
		t.Fatalf("restored names %v, want %s named \"checkout fix\" and %s unnamed", names, a.ID, b.ID)
	}
}
