package panestate

import (
	"os"
	"path/filepath"
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

// openFiles lists the files under dir that any process of the session sid
// (a pane's processes) holds open; ok is false when /proc cannot tell.
func openFiles(sid int, dir string) (files []string, ok bool) {
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return nil, false
	}
	dir = filepath.Clean(dir) + string(filepath.Separator)
	seen := map[string]bool{}
	for _, e := range procs {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || sessionOf(pid) != sid {
			continue
		}
		fds, _ := os.ReadDir("/proc/" + e.Name() + "/fd")
		for _, fd := range fds {
			target, err := os.Readlink("/proc/" + e.Name() + "/fd/" + fd.Name())
			if err == nil && strings.HasPrefix(target, dir) && !seen[target] {
				seen[target] = true
				files = append(files, target)
			}
		}
	}
	return files, true
}

// sessionOf reads a process's session id from /proc/<pid>/stat (-1 when
// it cannot be read).
func sessionOf(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return -1
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return -1
	}
	// After the name: state ppid pgrp session …
	f := strings.Fields(s[i+1:])
	if len(f) < 4 {
		return -1
	}
	n, err := strconv.Atoi(f[3])
	if err != nil {
		return -1
	}
	return n
}
