//go:build linux || darwin

package inventory

import (
	"os"

	"golang.org/x/sys/unix"
)

// readFlags open a store file for reading (see openRegular).
const readFlags = os.O_RDONLY | unix.O_NONBLOCK

// dirStatter stats names relative to an open folder (fstatat on its
// descriptor): the kernel resolves the folder's path once, not once per
// transcript, which is most of a warm refresh over thousands of files.
type dirStatter struct{ fd int }

func newDirStatter(f *os.File, _ string) dirStatter { return dirStatter{fd: int(f.Fd())} }

// stat returns a regular file's size and mtime; follow resolves a symlink.
func (d dirStatter) stat(name string, follow bool) (size, mtimeNs int64, ok bool) {
	var st unix.Stat_t
	flags := unix.AT_SYMLINK_NOFOLLOW
	if follow {
		flags = 0
	}
	for {
		err := unix.Fstatat(d.fd, name, &st, flags)
		if err == unix.EINTR {
			continue
		}
		if err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
			return 0, 0, false
		}
		return st.Size, st.Mtim.Nano(), true
	}
}
