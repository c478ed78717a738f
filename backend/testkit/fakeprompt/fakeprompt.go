// Package fakeprompt holds prompt.sh, a stand-in for Claude Code's TUI that
// draws a real-looking permission prompt on demand, for detection tests and
// the Sessions board's browser e2e.
package fakeprompt

import (
	"path/filepath"
	"runtime"
)

// Script is prompt.sh's absolute path.
func Script() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "prompt.sh")
}
