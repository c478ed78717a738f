//go:build !unix

package detectbench

import (
	"errors"
	"time"
)

func cpuTime() (time.Duration, error) {
	return 0, errors.New("the CPU measurement uses getrusage, which this platform lacks; run it on Linux or macOS")
}
