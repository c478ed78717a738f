//go:build unix

package cli

import (
	"path/filepath"
	"syscall"
	"testing"
)

// specialFiles are job file paths that are no regular file: a FIFO (no
// writer: reading it would wait forever) and a device that never ends.
func specialFiles(t *testing.T, dir string) []jobFileCase {
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	return []jobFileCase{
		{name: "a FIFO", args: []string{"--graph", fifo}, want: "not a regular file (p"},
		{name: "/dev/zero", args: []string{"--fleet", "/dev/zero"}, want: "not a regular file (D"},
	}
}
