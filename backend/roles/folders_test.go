package roles

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/store"
)

func newFolderService(t *testing.T) *Service {
	t.Helper()
	dir := t.TempDir()
	db, err := store.Open(filepath.Join(dir, "app.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	tick := time.UnixMilli(1_000)
	runner := agentcli.NewRunner(agentcli.RunnerOptions{Env: agentcli.Env{Home: dir, Path: dir}})
	s, err := New(context.Background(), Options{DB: db, Runner: runner, Now: func() time.Time { tick = tick.Add(time.Second); return tick }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// One folder is one Local Folder however it is typed: with a trailing
// slash, as a relative path or through a symlink, adding it again only
// makes it the most recently added one.
func TestAddFolderKeepsOneFormOfAFolder(t *testing.T) {
	root := t.TempDir()
	site := filepath.Join(root, "site")
	other := filepath.Join(root, "other")
	for _, d := range []string{site, other} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(root, "site-link")
	if err := os.Symlink(site, link); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	realSite, _ := filepath.EvalSymlinks(site)
	realOther, _ := filepath.EvalSymlinks(other)
	t.Chdir(root)

	for _, tc := range []struct {
		name string
		add  string
	}{
		{"plain", site},
		{"trailing slash", site + string(filepath.Separator)},
		{"through a symlink", link},
		{"relative", "site"},
		{"with a dot segment", filepath.Join(root, "other", "..", "site")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			s := newFolderService(t)
			if _, err := s.AddFolder(ctx, other); err != nil {
				t.Fatal(err)
			}
			if _, err := s.AddFolder(ctx, site); err != nil {
				t.Fatal(err)
			}
			if _, err := s.AddFolder(ctx, other); err != nil {
				t.Fatal(err)
			}
			f, err := s.AddFolder(ctx, tc.add)
			if err != nil {
				t.Fatal(err)
			}
			if f.Path != realSite {
				t.Errorf("saved as %q, want %q", f.Path, realSite)
			}
			list, err := s.Folders(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range list {
				got = append(got, f.Path)
			}
			if len(got) != 2 || got[0] != realSite || got[1] != realOther || !list[0].Current {
				t.Errorf("folders = %q (current %v), want [%s %s] with the site current", got, len(list) > 0 && list[0].Current, realSite, realOther)
			}
			if cur, err := s.CurrentFolder(ctx); err != nil || cur != realSite {
				t.Errorf("current folder = %q, %v; want %s", cur, err, realSite)
			}
		})
	}
}

// Rows saved before folders were made canonical (the same folder twice,
// once with a trailing slash) list once, as their most recent form; adding
// the folder again drops the other form.
func TestFoldersListsAFolderSavedTwiceOnce(t *testing.T) {
	ctx := context.Background()
	s := newFolderService(t)
	site, _ := filepath.EvalSymlinks(t.TempDir())
	if _, err := s.db.ExecContext(ctx, `INSERT INTO pipeline_folders(path, added_at) VALUES(?, 1), (?, 2)`, site+"/", site); err != nil {
		t.Fatal(err)
	}
	list, err := s.Folders(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Path != site {
		t.Fatalf("folders = %+v, want %s once", list, site)
	}
	if _, err := s.AddFolder(ctx, site); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM pipeline_folders`).Scan(&n); err != nil || n != 1 {
		t.Errorf("rows = %d, %v; want the other form dropped", n, err)
	}
}
