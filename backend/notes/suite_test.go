package notes_test

import (
	"path/filepath"
	"testing"

	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/notes/notestest"
	"github.com/osfoundry/desktop/backend/store"
)

// TestSQLiteStoreSuite runs the store suite against the desktop's SQLite
// backend; the team server's PostgreSQL backend runs the same suite
// (pgnotes/suite_test.go).
func TestSQLiteStoreSuite(t *testing.T) {
	notestest.RunStoreSuite(t, func(t *testing.T) notes.Backend {
		db, err := store.Open(filepath.Join(t.TempDir(), store.FileName))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		s, err := notes.Open(db, "")
		if err != nil {
			t.Fatal(err)
		}
		return s.Backend()
	})
}
