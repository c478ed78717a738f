//go:build !windows

package worktree

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

func shellArgs(command string) (string, []string) { return "sh", []string{"-c", command} }

// groupKill puts the command in its own process group and stops the whole
// group at the limit: `npm ci` leaves children behind otherwise.
func groupKill(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

func execProgram(argv []string) error {
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return fmt.Errorf("starting %s: %w", argv[0], err)
	}
	return syscall.Exec(path, argv, os.Environ())
}
