//go:build windows

package agentenv

import (
	"os"
	"os/exec"
)

// The live agent tests run on Linux and macOS; on Windows the helpers
// compile and end single processes.

func ownGroup(*exec.Cmd) {}

func killGroup(pid int) error { return killPID(pid) }

func killPID(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}
