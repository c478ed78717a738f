package panestate

import (
	"os"
	"strconv"
	"strings"
)

// procArgv reads a process's argv from /proc (npm-installed agents run as
// `node …/cli.js`, so the name alone cannot tell them apart).
func procArgv(pid int) []string {
	if pid <= 0 {
		return nil
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil || len(b) == 0 {
		return nil
	}
	return strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
}
