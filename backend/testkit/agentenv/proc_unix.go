//go:build !windows

package agentenv

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the command in its own process group so the whole tree
// can be ended at once.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

func killGroup(pid int) error { return syscall.Kill(-pid, syscall.SIGKILL) }

func killPID(pid int) error { return syscall.Kill(pid, syscall.SIGKILL) }
