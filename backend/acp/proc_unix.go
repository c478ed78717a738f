//go:build !windows

package acp

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the adapter in its own process group: Ctrl-C in the pane
// reaches only the client, which turns it into a session/cancel instead of
// killing the agent mid-turn. Ending the client ends the group.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithClient(cmd.SysProcAttr)
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }
}
