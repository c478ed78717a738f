package worktree

import (
	"fmt"
	"os"
	"os/exec"
)

func shellArgs(command string) (string, []string) { return "cmd", []string{"/C", command} }

func groupKill(cmd *exec.Cmd) {}

// execProgram runs the program as a child (Windows has no exec) and exits
// with its code.
func execProgram(argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			os.Exit(ee.ExitCode())
		}
		return fmt.Errorf("starting %s: %w", argv[0], err)
	}
	os.Exit(0)
	return nil
}
