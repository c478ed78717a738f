package pgnotes_test

import (
	"context"
	"os"
	"testing"

	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/notes/notestest"
	"github.com/osfoundry/desktop/backend/notes/pgnotes"
	"github.com/osfoundry/desktop/backend/pgdb"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// openDB opens a fresh, migrated notes database on its own pool.
func openDB(t *testing.T) (*pgnotes.DB, string) {
	t.Helper()
	url := pgtest.Database(t)
	return openURL(t, url), url
}

// openURL opens another pool (another "replica") on the database at url.
func openURL(t *testing.T, url string) *pgnotes.DB {
	t.Helper()
	ctx := context.Background()
	pool, err := pgdb.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	db, err := pgnotes.Open(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// TestPostgresStoreSuite runs the store suite the desktop's SQLite backend
// passes against the team server's PostgreSQL backend.
func TestPostgresStoreSuite(t *testing.T) {
	notestest.RunStoreSuite(t, func(t *testing.T) notes.Backend {
		db, _ := openDB(t)
		return db
	})
}
