//go:build !windows

package changeset

import (
	"errors"
	"syscall"
)

// alive reports whether process pid exists (signal 0 checks without sending).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
