package pipeline

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Folder is one Settings → Local Folders entry.
type Folder struct {
	ID      int64     `json:"id"`
	Path    string    `json:"path"`
	AddedAt time.Time `json:"addedAt"`
	// Current marks the folder runs use: the most recently added one.
	Current bool `json:"current"`
	// Missing is true when the folder no longer exists.
	Missing bool `json:"missing"`
}

// ErrNoFolders is returned when no local folder is set.
var ErrNoFolders = errors.New("no local folder is set: add one in Settings → Local Folders")

// Folders lists the local folders, most recently added first.
func (s *Service) Folders(ctx context.Context) ([]Folder, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, path, added_at FROM pipeline_folders ORDER BY added_at DESC, id DESC`)
	if err != nil {
		return nil, fmt.Errorf("reading local folders: %w", err)
	}
	defer rows.Close()
	out := []Folder{}
	for rows.Next() {
		var f Folder
		var at int64
		if err := rows.Scan(&f.ID, &f.Path, &at); err != nil {
			return nil, fmt.Errorf("reading local folders: %w", err)
		}
		f.AddedAt = time.UnixMilli(at)
		if st, err := os.Stat(f.Path); err != nil || !st.IsDir() {
			f.Missing = true
		}
		f.Current = len(out) == 0
		out = append(out, f)
	}
	return out, rows.Err()
}

// AddFolder adds a folder (or moves an existing one to the top: the most
// recently added folder is the one runs use).
func (s *Service) AddFolder(ctx context.Context, path string) (Folder, error) {
	if path == "" {
		return Folder{}, errors.New("adding a folder: the path is empty")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return Folder{}, fmt.Errorf("adding folder %s: %w", path, err)
	}
	st, err := os.Stat(abs)
	if err != nil || !st.IsDir() {
		return Folder{}, fmt.Errorf("adding folder %s: it does not exist or is not a folder", abs)
	}
	now := s.now().UnixMilli()
	var id int64
	err = s.db.QueryRowContext(ctx, `INSERT INTO pipeline_folders(path, added_at) VALUES(?, ?)
		ON CONFLICT(path) DO UPDATE SET added_at = excluded.added_at RETURNING id`, abs, now).Scan(&id)
	if err != nil {
		return Folder{}, fmt.Errorf("saving folder %s: %w", abs, err)
	}
	s.changed("")
	return Folder{ID: id, Path: abs, AddedAt: time.UnixMilli(now), Current: true}, nil
}

// RemoveFolder forgets a folder (the files are not touched).
func (s *Service) RemoveFolder(ctx context.Context, id int64) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM pipeline_folders WHERE id = ?`, id); err != nil {
		return fmt.Errorf("removing local folder: %w", err)
	}
	s.changed("")
	return nil
}

// CurrentFolder is the folder runs use: the most recently added one.
func (s *Service) CurrentFolder(ctx context.Context) (string, error) {
	var p string
	err := s.db.QueryRowContext(ctx, `SELECT path FROM pipeline_folders ORDER BY added_at DESC, id DESC LIMIT 1`).Scan(&p)
	if errors.Is(err, sql.ErrNoRows) {
		return "", ErrNoFolders
	}
	if err != nil {
		return "", fmt.Errorf("reading local folders: %w", err)
	}
	return p, nil
}
