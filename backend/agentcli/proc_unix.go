//go:build !windows

package agentcli

import (
	"fmt"
	"os/exec"
	"syscall"
)

// setGroup starts the child in its own process group so a limit or a
// cancel can end it together with everything it spawned (shells, MCP
// helpers, test runners).
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithApp(cmd.SysProcAttr)
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// killGroup ends whatever is left of the child's group after it exited:
// a background job of a shell command must not outlive the run.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

const canFreeze = true

// freezeGroup stops or continues every process of the group: the CLI and
// whatever it spawned (a test runner, a shell), so nothing keeps working.
func freezeGroup(pgid int, stop bool) error {
	sig := syscall.SIGCONT
	if stop {
		sig = syscall.SIGSTOP
	}
	if err := syscall.Kill(-pgid, sig); err != nil {
		return fmt.Errorf("signalling the run's processes: %w", err)
	}
	return nil
}
