package roles

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Folder is one Settings → Local Folders entry.
type Folder struct {
	ID      int64  `json:"id"`
	Path    string `json:"path"`
	AddedAt int64  `json:"addedAt"` // epoch ms
	// Current marks the folder runs use: the most recently added one.
	Current bool `json:"current"`
	// Missing is true when the folder no longer exists.
	Missing bool `json:"missing"`
}

// ErrNoFolders is returned when no local folder is set.
var ErrNoFolders = errors.New("no local folder is set: add one in Settings → Local Folders")

// Folders lists the local folders, most recently added first, each folder
// once: rows saved before paths were made canonical (a trailing slash, a
// symlink to the same folder) show as their most recent form.
func (s *Service) Folders(ctx context.Context) ([]Folder, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, path, added_at FROM pipeline_folders ORDER BY added_at DESC, id DESC`)
	if err != nil {
		return nil, fmt.Errorf("reading local folders: %w", err)
	}
	defer rows.Close()
	out := []Folder{}
	seen := map[string]bool{}
	for rows.Next() {
		var f Folder
		var at int64
		if err := rows.Scan(&f.ID, &f.Path, &at); err != nil {
			return nil, fmt.Errorf("reading local folders: %w", err)
		}
		key := canonicalFolder(f.Path)
		if seen[key] {
			continue
		}
		seen[key] = true
		f.AddedAt = at
		if st, err := os.Stat(f.Path); err != nil || !st.IsDir() {
			f.Missing = true
		}
		f.Current = len(out) == 0
		out = append(out, f)
	}
	return out, rows.Err()
}

// canonicalFolder is the one form a folder is kept under, so the same folder
// typed with a trailing slash, as a relative path or through a symlink is
// one Local Folder: absolute, cleaned, symlinks resolved (a folder that is
// gone keeps its cleaned absolute form).
func canonicalFolder(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

// AddFolder adds a folder (or moves an existing one to the top: the most
// recently added folder is the one runs use). The folder is saved in its
// canonical form (canonicalFolder), and other forms of it saved before are
// dropped.
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
	abs = canonicalFolder(abs)
	if err := s.dropOtherForms(ctx, abs); err != nil {
		return Folder{}, err
	}
	now := s.now().UnixMilli()
	var id int64
	err = s.db.QueryRowContext(ctx, `INSERT INTO pipeline_folders(path, added_at) VALUES(?, ?)
		ON CONFLICT(path) DO UPDATE SET added_at = excluded.added_at RETURNING id`, abs, now).Scan(&id)
	if err != nil {
		return Folder{}, fmt.Errorf("saving folder %s: %w", abs, err)
	}
	s.changed()
	return Folder{ID: id, Path: abs, AddedAt: now, Current: true}, nil
}

// dropOtherForms deletes the rows that name folder in another form.
func (s *Service) dropOtherForms(ctx context.Context, folder string) error {
	rows, err := s.db.QueryContext(ctx, `SELECT id, path FROM pipeline_folders WHERE path != ?`, folder)
	if err != nil {
		return fmt.Errorf("reading local folders: %w", err)
	}
	var dup []int64
	for rows.Next() {
		var id int64
		var p string
		if err := rows.Scan(&id, &p); err != nil {
			rows.Close()
			return fmt.Errorf("reading local folders: %w", err)
		}
		if canonicalFolder(p) == folder {
			dup = append(dup, id)
		}
	}
	rows.Close()
	for _, id := range dup {
		if _, err := s.db.ExecContext(ctx, `DELETE FROM pipeline_folders WHERE id = ?`, id); err != nil {
			return fmt.Errorf("removing another form of folder %s: %w", folder, err)
		}
	}
	return nil
}

// RemoveFolder forgets a folder (the files are not touched).
func (s *Service) RemoveFolder(ctx context.Context, id int64) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM pipeline_folders WHERE id = ?`, id); err != nil {
		return fmt.Errorf("removing local folder: %w", err)
	}
	s.changed()
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
