//go:build !windows

package main

import (
	"syscall"
	"time"
)

// childrenCPU is the user + system CPU of this process's finished children
// (git) so far: on a loaded machine it holds still when wall time does not.
func childrenCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
