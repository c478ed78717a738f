//go:build !windows

package procs

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Alive reports whether pid is a live process; a zombie (ended, not yet
// reaped) counts as gone.
func Alive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	if procMissing() {
		return true // no /proc (macOS): kill 0 decided
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	_, after, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(after, "Z")
}

func procMissing() bool {
	_, err := os.Stat("/proc/self/stat")
	return err != nil
}
