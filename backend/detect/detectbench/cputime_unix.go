//go:build unix

package detectbench

import (
	"fmt"
	"syscall"
	"time"
)

// cpuTime is this process's user+system CPU time (getrusage).
func cpuTime() (time.Duration, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, fmt.Errorf("reading process CPU time: %w", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), nil
}
