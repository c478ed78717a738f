//go:build !windows

package filelock

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// TryLock opens (creating) path and takes an exclusive, non-blocking flock
// on it; closing the file releases it.
func TryLock(path string) (*os.File, error) {
	return TryLockFlags(path, os.O_CREATE|os.O_RDWR)
}

// TryLockFlags is TryLock with the open flags given (O_APPEND for a
// journal the holder writes to).
func TryLockFlags(path string, flag int) (*os.File, error) {
	f, err := os.OpenFile(path, flag, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, ErrLocked
		}
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	return f, nil
}
