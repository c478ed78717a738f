//go:build unix

package detectbench

import (
	"errors"
	"syscall"
)

func isEIO(err error) bool { return errors.Is(err, syscall.EIO) }
