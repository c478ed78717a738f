package filelock

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/windows"
)

// TryLock opens (creating) path and takes an exclusive, non-blocking
// LockFileEx lock on it; closing the file releases it.
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
	ol := new(windows.Overlapped)
	err = windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
	if err != nil {
		f.Close()
		if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
			return nil, ErrLocked
		}
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	return f, nil
}
