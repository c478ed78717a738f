//go:build windows

package changeset

import "os"

// alive reports whether process pid exists: FindProcess opens the process
// on Windows and fails when there is none.
func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}
