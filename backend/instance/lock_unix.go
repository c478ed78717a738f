//go:build !windows

package instance

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

var errLocked = errors.New("the data folder is in use by another osFoundry")

// tryLock takes an exclusive, non-blocking flock on path. The kernel drops
// it when the process ends, so a crashed instance never leaves the folder
// locked.
func tryLock(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, errLocked
		}
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	return f, nil
}
