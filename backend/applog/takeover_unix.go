//go:build !windows

package applog

import (
	"os"

	"golang.org/x/sys/unix"
)

// takeOver points descriptors 1 and 2 at f.
func takeOver(f *os.File) error {
	for _, fd := range []int{1, 2} {
		if err := unix.Dup2(int(f.Fd()), fd); err != nil {
			return err
		}
	}
	return nil
}
