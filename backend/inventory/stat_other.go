//go:build !linux && !darwin

package inventory

import (
	"os"
	"path/filepath"
)

// readFlags open a store file for reading (see openRegular).
const readFlags = os.O_RDONLY

// dirStatter stats by path where fstatat is not available.
type dirStatter struct{ dir string }

func newDirStatter(_ *os.File, dir string) dirStatter { return dirStatter{dir: dir} }

// stat returns a regular file's size and mtime; follow resolves a symlink.
func (d dirStatter) stat(name string, follow bool) (size, mtimeNs int64, ok bool) {
	p := filepath.Join(d.dir, name)
	st, err := os.Lstat(p)
	if follow {
		st, err = os.Stat(p)
	}
	if err != nil || !st.Mode().IsRegular() {
		return 0, 0, false
	}
	return st.Size(), st.ModTime().UnixNano(), true
}
