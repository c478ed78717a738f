// Package panestore remembers which panes are open (folder, command, place
// in the rail and the conversation their agent reported — never their
// text) so the app restores them on the next start, and the folders panes
// were started in for the New pane form.
package panestore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/terminal"
)

var migrations = []store.Migration{
	{Version: 1, SQL: `CREATE TABLE panes (
		id TEXT PRIMARY KEY,
		dir TEXT NOT NULL,
		argv TEXT NOT NULL,
		cols INTEGER NOT NULL,
		rows INTEGER NOT NULL,
		created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')))`},
	// The rail's order, the conversation the pane's agent reported (what a
	// restore resumes), and the folders the New pane form offers.
	{Version: 2, SQL: `ALTER TABLE panes ADD COLUMN position INTEGER NOT NULL DEFAULT 0;
		ALTER TABLE panes ADD COLUMN session_id TEXT NOT NULL DEFAULT '';
		ALTER TABLE panes ADD COLUMN session_file TEXT NOT NULL DEFAULT '';
		CREATE TABLE pane_folders (
			dir TEXT PRIMARY KEY,
			used_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')))`},
}

// Store keeps pane specs in the app database.
type Store struct{ db *sql.DB }

var _ terminal.SpecStore = (*Store)(nil)

// Open migrates the panes table.
func Open(ctx context.Context, db *sql.DB) (*Store, error) {
	if err := store.Migrate(ctx, db, "panes", migrations); err != nil {
		return nil, err
	}
	return &Store{db: db}, nil
}

// SavePane records an open pane.
func (s *Store) SavePane(sp terminal.Spec) error {
	argv, _ := json.Marshal(sp.Argv)
	_, err := s.db.Exec(`INSERT INTO panes (id, dir, argv, cols, rows, position, session_id, session_file) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(id) DO UPDATE SET dir = excluded.dir, argv = excluded.argv, cols = excluded.cols, rows = excluded.rows,
			position = excluded.position, session_id = excluded.session_id, session_file = excluded.session_file`,
		sp.ID, sp.Dir, string(argv), sp.Cols, sp.Rows, sp.Position, sp.Session.ID, sp.Session.File)
	if err != nil {
		return fmt.Errorf("saving pane %s: %w", sp.ID, err)
	}
	return nil
}

// DeletePane forgets a closed pane.
func (s *Store) DeletePane(id string) error {
	if _, err := s.db.Exec(`DELETE FROM panes WHERE id = ?`, id); err != nil {
		return fmt.Errorf("forgetting pane %s: %w", id, err)
	}
	return nil
}

// LoadPanes returns the panes open at the last quit, in rail order.
func (s *Store) LoadPanes() ([]terminal.Spec, error) {
	rows, err := s.db.Query(`SELECT id, dir, argv, cols, rows, position, session_id, session_file FROM panes
		ORDER BY position, created_at, id`)
	if err != nil {
		return nil, fmt.Errorf("loading panes: %w", err)
	}
	defer rows.Close()
	var out []terminal.Spec
	for rows.Next() {
		var sp terminal.Spec
		var argv string
		if err := rows.Scan(&sp.ID, &sp.Dir, &argv, &sp.Cols, &sp.Rows, &sp.Position, &sp.Session.ID, &sp.Session.File); err != nil {
			return nil, fmt.Errorf("loading panes: %w", err)
		}
		if json.Unmarshal([]byte(argv), &sp.Argv) != nil {
			continue // a damaged row is skipped, not fatal
		}
		out = append(out, sp)
	}
	return out, rows.Err()
}

// maxFolders bounds the folders the New pane form remembers.
const maxFolders = 12

// UseFolder remembers dir as the folder a pane was last started in.
func (s *Store) UseFolder(dir string) error {
	if _, err := s.db.Exec(`INSERT INTO pane_folders (dir) VALUES (?)
		ON CONFLICT(dir) DO UPDATE SET used_at = strftime('%Y-%m-%dT%H:%M:%fZ','now')`, dir); err != nil {
		return fmt.Errorf("remembering folder %s: %w", dir, err)
	}
	if _, err := s.db.Exec(`DELETE FROM pane_folders WHERE dir NOT IN
		(SELECT dir FROM pane_folders ORDER BY used_at DESC, rowid DESC LIMIT ?)`, maxFolders); err != nil {
		return fmt.Errorf("trimming remembered folders: %w", err)
	}
	return nil
}

// Folders returns the remembered folders, most recently used first.
func (s *Store) Folders() ([]string, error) {
	rows, err := s.db.Query(`SELECT dir FROM pane_folders ORDER BY used_at DESC, rowid DESC`)
	if err != nil {
		return nil, fmt.Errorf("loading remembered folders: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var d string
		if err := rows.Scan(&d); err != nil {
			return nil, fmt.Errorf("loading remembered folders: %w", err)
		}
		out = append(out, d)
	}
	return out, rows.Err()
}
