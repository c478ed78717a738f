package shellenv

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
)

// ErrProgramMissing is wrapped by CommandIn when the program is not on the
// PATH it was looked up in: callers tell it apart from the program's own
// failure (git missing is not "not a git repository").
var ErrProgramMissing = errors.New("not found on PATH")

// CommandIn is the one way the app runs a program it does not ship (git,
// gh, the agent CLIs): name is found on env's PATH, the environment the
// program runs with, never on the process's own. exec.Command looks names
// up in the process's PATH, which a window started from a menu does not
// have (the login shell's PATH reaches children only through env, see the
// package note), so there `git` would not be found and a repository would
// read as "not a git repository".
func CommandIn(ctx context.Context, env []string, name string, args ...string) (*exec.Cmd, error) {
	path, err := LookPathIn(name, env)
	if err != nil {
		return nil, fmt.Errorf("finding %s: %w (%v) — install it, or add its folder to PATH in your shell's startup file (~/.bashrc, ~/.zshrc or ~/.profile) and start osFoundry again (PATH searched: %q)",
			name, ErrProgramMissing, err, GetIn(env, "PATH"))
	}
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Args[0] = name // what the program and error messages call it
	cmd.Env = env
	return cmd, nil
}
