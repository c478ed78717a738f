package panestore

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/terminal"
	"github.com/osfoundry/desktop/backend/worktree"
)

// A branch pane's branch and a repository's personal set-up survive a
// restart of the app.
func TestBranchAndSetupAreKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "app.db")
	open := func() *Store {
		db, err := store.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		st, err := Open(context.Background(), db)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	st := open()
	b := &terminal.Branch{Repo: "/src/shop", Worktree: "/src/shop.osf-worktrees/x", Name: "osf/x", Base: "main", BaseCommit: "abc", PortOffset: 20}
	if err := st.SavePane(terminal.Spec{ID: "p-1", Dir: b.Worktree, Argv: []string{"claude"}, Cols: 80, Rows: 24, Branch: b}); err != nil {
		t.Fatal(err)
	}
	if err := st.SavePane(terminal.Spec{ID: "p-2", Dir: "/src", Argv: []string{"sh"}, Cols: 80, Rows: 24}); err != nil {
		t.Fatal(err)
	}
	cfg := worktree.Config{Copy: []string{".env"}, Setup: "npm ci", LimitSeconds: 90}
	if err := st.SaveWorktreeSetup("/src/shop", cfg); err != nil {
		t.Fatal(err)
	}
	st = open()
	specs, err := st.LoadPanes()
	if err != nil {
		t.Fatal(err)
	}
	if len(specs) != 2 || specs[0].Branch == nil || *specs[0].Branch != *b || specs[1].Branch != nil {
		t.Fatalf("loaded %+v", specs)
	}
	got, err := st.WorktreeSetup("/src/shop")
	if err != nil || !reflect.DeepEqual(got, cfg) {
		t.Errorf("set-up = %+v, %v; want %+v", got, err, cfg)
	}
	if none, err := st.WorktreeSetup("/elsewhere"); err != nil || none.Setup != "" || len(none.Copy) != 0 {
		t.Errorf("unknown repository's set-up = %+v, %v", none, err)
	}
}
