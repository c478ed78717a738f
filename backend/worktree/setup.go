package worktree

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/shellenv"
)

// Environment a pane on a new branch gets.
const (
	// EnvPortOffset is added by dev servers to their port so the agents of
	// parallel worktrees do not collide (distinct among live worktrees).
	EnvPortOffset = "OSF_PORT_OFFSET"
	// EnvSetupCommand and EnvSetupLimit hand the set-up command and its
	// limit in seconds to `osfoundry pane setup`, which runs it in the pane
	// before the program.
	EnvSetupCommand = "OSF_SETUP_COMMAND"
	EnvSetupLimit   = "OSF_SETUP_LIMIT"
)

// ErrSetupFailed and ErrSetupStopped: the set-up command exited with an
// error, or ran past its limit and was stopped.
var (
	ErrSetupFailed  = errors.New("the set-up command failed")
	ErrSetupStopped = errors.New("the set-up command was stopped at its time limit")
)

// RunSetup runs command with the user's shell in dir, its output going to
// out, and stops it (and everything it started) after limit.
func RunSetup(ctx context.Context, command, dir string, env []string, limit time.Duration, out io.Writer) error {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	name, args := shellArgs(command)
	cmd, err := shellenv.CommandIn(ctx, env, name, args...)
	if err != nil {
		return fmt.Errorf("running the set-up command: %w", err)
	}
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, out, out
	groupKill(cmd)
	cmd.WaitDelay = 2 * time.Second
	err = cmd.Run()
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return fmt.Errorf("%w (%s): `%s`", ErrSetupStopped, limit, command)
	case err != nil:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return fmt.Errorf("%w (exit %d): `%s`", ErrSetupFailed, ee.ExitCode(), command)
		}
		return fmt.Errorf("%w: `%s`: %v", ErrSetupFailed, command, err)
	}
	return nil
}

// SetupThenExec is `osfoundry pane setup -- <program…>` in a pane: it runs
// the set-up command from the environment (EnvSetupCommand) in the current
// folder with its output in the pane, then replaces itself with the
// program. When the set-up fails or hangs it says so and waits for Enter
// before starting the program, so the message is read before the agent
// draws over it.
func SetupThenExec(argv []string, stdin io.Reader, out io.Writer) error {
	command := os.Getenv(EnvSetupCommand)
	limit := DefaultSetupLimit
	if s, err := strconv.Atoi(os.Getenv(EnvSetupLimit)); err == nil && s > 0 {
		limit = time.Duration(s) * time.Second
	}
	os.Unsetenv(EnvSetupCommand)
	os.Unsetenv(EnvSetupLimit)
	if len(argv) == 0 {
		return errors.New("no program to start after the set-up")
	}
	if strings.TrimSpace(command) != "" {
		dir, _ := os.Getwd()
		fmt.Fprintf(out, "\x1b[2mSetting up this worktree: %s\x1b[0m\r\n", command)
		if err := RunSetup(context.Background(), command, dir, os.Environ(), limit, &crlf{w: out}); err != nil {
			fmt.Fprintf(out, "\r\n\x1b[31m%s.\x1b[0m\r\nFix it in %s or in your set-up settings. Press Enter to start %s anyway, or close the pane.\r\n", err, ConfigFile, argv[0])
			bufio.NewReader(stdin).ReadString('\n') //nolint:errcheck // EOF starts the program too
		} else {
			fmt.Fprintf(out, "\x1b[2mSet-up done.\x1b[0m\r\n")
		}
	}
	return execProgram(argv)
}

// crlf turns bare \n into \r\n: the set-up command's output goes to a
// terminal that is not in the mode a shell would have set for it.
type crlf struct{ w io.Writer }

func (c *crlf) Write(p []byte) (int, error) {
	_, err := c.w.Write([]byte(strings.ReplaceAll(strings.ReplaceAll(string(p), "\r\n", "\n"), "\n", "\r\n")))
	return len(p), err
}
