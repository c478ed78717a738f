package pgmessages_test

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/messages/messagestest"
	"github.com/osfoundry/desktop/backend/messages/pgmessages"
	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/notes/pgnotes"
	"github.com/osfoundry/desktop/backend/pgdb"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

var bg = context.Background()

// open returns a pool on url and the message backend over it; each call
// is one replica of the server.
func open(t *testing.T, url string) (*pgxpool.Pool, *pgmessages.Backend) {
	t.Helper()
	pool, err := pgdb.Open(bg, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	b, err := pgmessages.Open(bg, pool)
	if err != nil {
		t.Fatal(err)
	}
	return pool, b
}

// withNotes migrates the notes store, which owns workspaces and projects,
// in the database at url, as the server does before the message store.
func withNotes(t *testing.T, url string) *pgnotes.DB {
	t.Helper()
	pool, err := pgdb.Open(bg, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	nb, err := pgnotes.Open(bg, pool)
	if err != nil {
		t.Fatal(err)
	}
	return nb
}

// addProject creates a project, and its workspace when new, through the
// notes store's rows.
func addProject(t *testing.T, nb *pgnotes.DB, ws, project, name string) {
	t.Helper()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := nb.Write(bg, func(tx notes.Tx) error {
		places := tx.Places()
		if err := places.WorkspaceExists(bg, ws); errors.Is(err, notes.ErrNotFound) {
			if err := places.InsertWorkspace(bg, notes.Workspace{ID: ws, Name: "Workspace " + ws}, now); err != nil {
				return err
			}
		} else if err != nil {
			return err
		}
		return places.InsertProject(bg, notes.Project{ID: project, Workspace: ws, Name: name}, now)
	}); err != nil {
		t.Fatal(err)
	}
}

// TestPostgresStoreSuite runs the desktop's store suite against
// PostgreSQL, beside the notes store's PostgreSQL tables; replicas are
// separate pools on one database.
func TestPostgresStoreSuite(t *testing.T) {
	messagestest.RunStoreSuite(t, func(t *testing.T) messagestest.Env {
		url := pgtest.Database(t)
		nb := withNotes(t, url)
		_, b := open(t, url)
		return messagestest.Env{
			Backend:    b,
			Replica:    func(t *testing.T) messages.Backend { _, b := open(t, url); return b },
			AddProject: func(t *testing.T, ws, project, name string) { addProject(t, nb, ws, project, name) },
		}
	})
}
