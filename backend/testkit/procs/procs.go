// Package procs answers, for tests, whether a process is still alive (the
// check that a cancelled run or a closed pane left nothing behind) and
// whether it is stopped (a paused session).
package procs

import (
	"os"
	"strconv"
	"strings"
)

// State is the one-letter state of pid from /proc/<pid>/stat ("T" stopped,
// "Z" zombie), or "" when it cannot be read (gone, or no /proc: not Linux).
func State(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) == 0 {
		return ""
	}
	return f[0]
}
