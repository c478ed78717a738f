package worktree

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrEscapes: a copy pattern names something outside the repository.
var ErrEscapes = errors.New("reaches outside the repository")

// maxCopyFiles bounds one worktree's copied files: a pattern like "*" on a
// node_modules folder belongs in the set-up command instead.
const maxCopyFiles = 2000

// CheckPattern refuses a copy pattern that is absolute or climbs out of
// the repository with "..".
func CheckPattern(p string) error {
	clean := filepath.ToSlash(strings.TrimSpace(p))
	if clean == "" {
		return fmt.Errorf("an empty copy pattern: remove it")
	}
	if filepath.IsAbs(p) || strings.HasPrefix(clean, "/") || filepath.VolumeName(p) != "" {
		return fmt.Errorf("copy pattern %q %w: give a path inside the repository, e.g. .env or config/*.local.json", p, ErrEscapes)
	}
	for _, part := range strings.Split(clean, "/") {
		if part == ".." {
			return fmt.Errorf("copy pattern %q %w (\"..\"): only files of the repository are copied", p, ErrEscapes)
		}
	}
	if _, err := filepath.Match(clean, ""); err != nil {
		return fmt.Errorf("copy pattern %q: %w", p, err)
	}
	return nil
}

// CopyFiles copies the files of src (the repository's top folder) that
// match patterns (globs relative to src; a folder is copied whole) to the
// same places under dst. A pattern that escapes src is refused, and so is
// a match that reaches outside src through a symbolic link. It returns the
// copied paths relative to dst.
func CopyFiles(src, dst string, patterns []string) ([]string, error) {
	copied := []string{}
	for _, p := range patterns {
		if err := CheckPattern(p); err != nil {
			return nil, err
		}
	}
	realSrc, err := filepath.EvalSymlinks(src)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", src, err)
	}
	for _, p := range patterns {
		matches, err := filepath.Glob(filepath.Join(src, filepath.FromSlash(strings.TrimSpace(p))))
		if err != nil {
			return nil, fmt.Errorf("copy pattern %q: %w", p, err)
		}
		for _, m := range matches {
			err := filepath.WalkDir(m, func(path string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if d.IsDir() {
					if d.Name() == ".git" {
						return filepath.SkipDir
					}
					return nil
				}
				rel, err := filepath.Rel(src, path)
				if err != nil {
					return err
				}
				real, err := filepath.EvalSymlinks(path)
				if err != nil {
					return fmt.Errorf("copying %s: %w", rel, err)
				}
				if !inside(real, realSrc) {
					return fmt.Errorf("copying %s: it links to %s, which %w — copy it with the set-up command instead", rel, real, ErrEscapes)
				}
				if len(copied) >= maxCopyFiles {
					return fmt.Errorf("copy patterns match more than %d files — narrow them, or install those files with the set-up command", maxCopyFiles)
				}
				if err := copyFile(real, filepath.Join(dst, rel)); err != nil {
					return fmt.Errorf("copying %s into the worktree: %w", rel, err)
				}
				copied = append(copied, filepath.ToSlash(rel))
				return nil
			})
			if err != nil {
				return nil, err
			}
		}
	}
	return copied, nil
}

func inside(path, root string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, st.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
