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
