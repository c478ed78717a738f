// Package panestore remembers which panes are open (folder, command, place
// in the rail, the name the person gave it and the conversation their
// agent reported) so the app restores them on the next start, the folders panes
// were started in for the New pane form, and — only while the person keeps
// scrollback (Settings → Terminal) — each open pane's recent output,
// compressed and bounded (scrollback.go). Nothing here is ever sent off
// the machine.
package panestore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/terminal"
	"github.com/osfoundry/desktop/backend/worktree"
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
	// What the person called the pane (Rename), shown instead of its folder.
	{Version: 3, SQL: `ALTER TABLE panes ADD COLUMN name TEXT NOT NULL DEFAULT ''`},
	// A pane's own branch and worktree (JSON, '' for none), and each
	// repository's personal set-up for new worktrees.
	{Version: 4, SQL: `ALTER TABLE panes ADD COLUMN branch TEXT NOT NULL DEFAULT '';
		CREATE TABLE worktree_setups (
			repo TEXT PRIMARY KEY,
			config TEXT NOT NULL)`},
	// Each open pane's recent output, gzip-compressed (scrollback.go).
	{Version: 5, SQL: `CREATE TABLE pane_scrollback (
		id TEXT PRIMARY KEY,
		data BLOB NOT NULL,
		saved_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')))`},
}

// Store keeps pane specs in the app database.
type Store struct{ db *sql.DB }

var (
	_ terminal.SpecStore       = (*Store)(nil)
	_ terminal.SetupStore      = (*Store)(nil)
	_ terminal.ScrollbackStore = (*Store)(nil)
)

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
	branch := ""
	if sp.Branch != nil {
		b, _ := json.Marshal(sp.Branch)
		branch = string(b)
	}
	_, err := s.db.Exec(`INSERT INTO panes (id, dir, argv, cols, rows, position, session_id, session_file, name, branch) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(id) DO UPDATE SET dir = excluded.dir, argv = excluded.argv, cols = excluded.cols, rows = excluded.rows,
			position = excluded.position, session_id = excluded.session_id, session_file = excluded.session_file, name = excluded.name,
			branch = excluded.branch`,
		sp.ID, sp.Dir, string(argv), sp.Cols, sp.Rows, sp.Position, sp.Session.ID, sp.Session.File, sp.Name, branch)
	if err != nil {
		return fmt.Errorf("saving pane %s: %w", sp.ID, err)
	}
	return nil
}

// DeletePane forgets a closed pane and its saved output.
func (s *Store) DeletePane(id string) error {
	if _, err := s.db.Exec(`DELETE FROM panes WHERE id = ?`, id); err != nil {
		return fmt.Errorf("forgetting pane %s: %w", id, err)
	}
	return s.DeleteScrollback(id)
}

// LoadPanes returns the panes open at the last quit, in rail order.
func (s *Store) LoadPanes() ([]terminal.Spec, error) {
	rows, err := s.db.Query(`SELECT id, dir, argv, cols, rows, position, session_id, session_file, name, branch FROM panes
		ORDER BY position, created_at, id`)
	if err != nil {
		return nil, fmt.Errorf("loading panes: %w", err)
	}
	defer rows.Close()
	var out []terminal.Spec
	for rows.Next() {
		var sp terminal.Spec
		var argv, branch string
		if err := rows.Scan(&sp.ID, &sp.Dir, &argv, &sp.Cols, &sp.Rows, &sp.Position, &sp.Session.ID, &sp.Session.File, &sp.Name, &branch); err != nil {
			return nil, fmt.Errorf("loading panes: %w", err)
		}
		if json.Unmarshal([]byte(argv), &sp.Argv) != nil {
			continue // a damaged row is skipped, not fatal
		}
		if branch != "" && json.Unmarshal([]byte(branch), &sp.Branch) != nil {
			sp.Branch = nil // the pane comes back in its folder, without counts
		}
		out = append(out, sp)
	}
	return out, rows.Err()
}

// maxFolders bounds the folders the New pane form remembers.
const maxFolders = 12

// UseFolder remembers dir as the folder a pane was last started in.
func (s *Store) UseFolder(dir string) error {
	// REPLACE gives the row a new, largest rowid, so two uses within the same
	// millisecond still sort the later one first.
	if _, err := s.db.Exec(`INSERT OR REPLACE INTO pane_folders (dir) VALUES (?)`, dir); err != nil {
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

// WorktreeSetup returns the person's own set-up for new worktrees of repo
// (zero when none was saved).
func (s *Store) WorktreeSetup(repo string) (worktree.Config, error) {
	var c worktree.Config
	var raw string
	err := s.db.QueryRow(`SELECT config FROM worktree_setups WHERE repo = ?`, repo).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("reading the set-up of %s: %w", repo, err)
	}
	if err := json.Unmarshal([]byte(raw), &c); err != nil {
		return worktree.Config{}, fmt.Errorf("reading the set-up of %s: %w", repo, err)
	}
	return c, nil
}

// SaveWorktreeSetup keeps the person's own set-up for repo.
func (s *Store) SaveWorktreeSetup(repo string, c worktree.Config) error {
	b, _ := json.Marshal(c)
	if _, err := s.db.Exec(`INSERT INTO worktree_setups (repo, config) VALUES (?, ?)
		ON CONFLICT(repo) DO UPDATE SET config = excluded.config`, repo, string(b)); err != nil {
		return fmt.Errorf("saving the set-up of %s: %w", repo, err)
	}
	return nil
}
