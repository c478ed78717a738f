package cli

import (
	"database/sql"
	"path/filepath"

	"github.com/osfoundry/desktop/backend/appdir"
	"github.com/osfoundry/desktop/backend/store"
)

// openAppDB opens the database in the app data folder, the one the app
// itself uses, and returns the folder too (the knowledge folder lives there).
func openAppDB() (*sql.DB, string, error) {
	dir, err := appdir.Dir()
	if err != nil {
		return nil, "", err
	}
	db, err := store.Open(filepath.Join(dir, store.FileName))
	if err != nil {
		return nil, "", err
	}
	return db, dir, nil
}
