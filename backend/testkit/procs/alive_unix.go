//go:build !windows

package procs

import (
	"errors"
	"os"
	"syscall"
)

// Alive reports whether pid is a live process; a zombie (ended, not yet
// reaped) counts as gone.
func Alive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		return true // no /proc (macOS): kill 0 decided
	}
	st := State(pid)
	return st != "" && st != "Z"
}
