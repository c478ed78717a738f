// Package filelock takes exclusive, non-blocking locks on files that the
// operating system drops when the holding process ends, so a crashed
// process never leaves a file locked.
package filelock

import "errors"

// ErrLocked is returned when another process holds the lock.
var ErrLocked = errors.New("locked by another process")
