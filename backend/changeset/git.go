package changeset

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/osfoundry/desktop/backend/shellenv"
)

// gitEnv is the environment git runs in: the caller's, without GIT_*
// variables that could point it at another repository, never prompting,
// plus extra (GIT_INDEX_FILE of an approval).
//
// GIT_ATTR_NOSYSTEM keeps the machine-wide gitattributes from assigning
// filter or diff drivers. The system config file itself is still read: it
// may hold safe.directory entries the owner relies on, and every setting
// that could start a program is overridden on the command line (noPrograms),
// which wins over every config file.
func gitEnv(extra ...string) []string {
	env := []string{}
	// The login shell's PATH (shellenv), not only the window's own: a
	// window started from a menu has none, and git would not be found.
	for _, kv := range shellenv.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	env = append(env, "GIT_TERMINAL_PROMPT=0", "GIT_ATTR_NOSYSTEM=1",
		"GIT_AUTHOR_NAME="+AuthorName, "GIT_AUTHOR_EMAIL="+AuthorEmail,
		"GIT_COMMITTER_NAME="+AuthorName, "GIT_COMMITTER_EMAIL="+AuthorEmail)
	return append(env, extra...)
}

// noPrograms are the settings every git command of this package runs
// with, so that no program the repository's config or a proposal's files
// name runs while a proposal is read or approved:
//   - core.hooksPath to the null device: no hook at all, neither the
//     owner's (.git/hooks: post-checkout, post-index-change,
//     reference-transaction, … would run on proposal content) nor one a
//     relative hooksPath (husky's ".husky/_", ".githooks") finds among the
//     repository's own files. "--no-verify" skips only pre-commit and
//     commit-msg, which is why the commit is made with plumbing.
//   - core.fsmonitor off: it names a program git starts on index reads.
//   - core.attributesFile to the null device: no filter or diff driver is
//     assigned from the owner's global attributes; the commands used never
//     filter content anyway (hash-object --no-filters, apply --cached).
//
// os.DevNull is "NUL" on Windows, which Git for Windows accepts alike.
var noPrograms = []string{
	"-c", "core.hooksPath=" + os.DevNull,
	"-c", "core.fsmonitor=false",
	"-c", "core.attributesFile=" + os.DevNull,
	"-c", "commit.gpgSign=false",
}

func runGit(ctx context.Context, dir string, stdin []byte, args ...string) (string, error) {
	return runGitEnv(ctx, dir, nil, stdin, args...)
}

// runGitEnv runs git in dir with extra environment variables.
func runGitEnv(ctx context.Context, dir string, extra []string, stdin []byte, args ...string) (string, error) {
	argv := append(append([]string{"-C", dir}, noPrograms...), args...)
	cmd, err := shellenv.CommandIn(ctx, gitEnv(extra...), "git", argv...)
	if err != nil {
		return "", err
	}
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = err.Error()
		}
		return out.String(), fmt.Errorf("git %s: %s", args[0], msg)
	}
	return out.String(), nil
}
