package worktree

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/shellenv"
)

// gitTimeout bounds one git call: a hung credential helper or a network
// filesystem must not hold a pane's start forever.
const gitTimeout = 60 * time.Second

// Git runs git with args in dir and returns its standard output. git is
// found on env's PATH (the login shell's: the window's own may be empty
// when it was started from a menu); prompts are off and messages are in
// English so errors can be read. A failure carries git's stderr.
func Git(ctx context.Context, env []string, dir string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	cmd, err := shellenv.CommandIn(ctx, append(slices.Clip(env), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C"), "git", append([]string{"-C", dir}, args...)...)
	if err != nil {
		return "", err
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(errb.String()))
	}
	return out.String(), nil
}
