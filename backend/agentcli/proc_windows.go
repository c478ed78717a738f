//go:build windows

package agentcli

import "os/exec"

// Windows has no process groups to signal; the child itself is killed.
func setGroup(cmd *exec.Cmd) {}

func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

// Windows has no signals to freeze a process tree with; Pause says so.
const canFreeze = false

func freezeGroup(pgid int, stop bool) error { return ErrPauseUnavailable }
