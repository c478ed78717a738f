package messages_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/messages/messagestest"
	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/store"
)

// TestSQLiteStoreSuite runs the store suite against the desktop's SQLite
// backend, beside the notes store that owns the projects; the team
// server's PostgreSQL backend runs the same suite (pgmessages). A replica
// is a second connection pool on the same file, as a second process has.
func TestSQLiteStoreSuite(t *testing.T) {
	messagestest.RunStoreSuite(t, func(t *testing.T) messagestest.Env {
		dir := t.TempDir()
		db, err := store.Open(filepath.Join(dir, store.FileName))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		ns, err := notes.Open(db, filepath.Join(dir, "knowledge"))
		if err != nil {
			t.Fatal(err)
		}
		b, err := messages.OpenSQLite(context.Background(), db)
		if err != nil {
			t.Fatal(err)
		}
		replica := func(t *testing.T) messages.Backend {
			db, err := store.Open(filepath.Join(dir, store.FileName))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			b, err := messages.OpenSQLite(context.Background(), db)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
		return messagestest.Env{Backend: b, Replica: replica, AddProject: func(t *testing.T, ws, project, name string) {
			ctx := context.Background()
			wss, err := ns.ListWorkspaces(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(wss, func(w notes.Workspace) bool { return w.ID == ws }) {
				if _, err := ns.CreateWorkspace(ctx, ws, "Workspace "+ws); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := ns.CreateProject(ctx, ws, project, name); err != nil {
				t.Fatal(err)
			}
		}}
	})
}
