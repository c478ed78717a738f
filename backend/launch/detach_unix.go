//go:build !windows

package launch

import (
	"os/exec"
	"syscall"
)

// detach starts the window in its own session: closing the terminal the
// command was typed in does not close the window.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}
