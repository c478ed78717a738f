package agentcli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/osfoundry/desktop/backend/shellenv"
	gitwt "github.com/osfoundry/desktop/backend/worktree"
)

// BranchPrefix names every run branch; DiscardBranch refuses anything else.
const BranchPrefix = "osf/run-"

// ErrNotGitRepo is wrapped when a run needs a worktree and its folder is
// not inside a git repository.
var ErrNotGitRepo = errors.New("not a git repository")

// maxDiff bounds the diff kept on a Result; the branch has all of it.
const maxDiff = 256 << 10

// worktree is one run's branch and working copy.
type worktree struct {
	Repo   string // the repository's top folder
	Dir    string // the worktree folder
	Sub    string // the run folder inside Dir (the chosen folder may be a subfolder)
	Branch string
	Base   string // commit the branch starts from
	env    []string
}

// gitCmd is the one git runner the app has (gitwt.Git): argv only,
// the login shell's PATH, no prompts.
func gitCmd(ctx context.Context, env []string, dir string, args ...string) (string, error) {
	return gitwt.Git(ctx, env, dir, args...)
}

// createWorktree makes branch osf/run-<id> at HEAD of folder's repository
// and checks it out in parent/<id>.
func createWorktree(ctx context.Context, env []string, folder, parent, id string) (*worktree, error) {
	top, err := gitCmd(ctx, env, folder, "rev-parse", "--show-toplevel")
	if errors.Is(err, shellenv.ErrProgramMissing) {
		return nil, fmt.Errorf("this run needs a git worktree: %w", err)
	}
	if err != nil {
		return nil, fmt.Errorf("%s is %w, and this run needs a git worktree: run `git init` there and commit once, or choose a repository folder in Settings → Local Folders", folder, ErrNotGitRepo)
	}
	top = strings.TrimSpace(top)
	base, err := gitCmd(ctx, env, top, "rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return nil, fmt.Errorf("the repository %s has no commits yet, so a run branch has nothing to start from: commit once and try again", top)
	}
	w := &worktree{Repo: top, Dir: filepath.Join(parent, id), Branch: BranchPrefix + id, Base: strings.TrimSpace(base), env: env}
	w.Sub = w.Dir
	if real, err := filepath.EvalSymlinks(folder); err == nil {
		if rel, err := filepath.Rel(top, real); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			w.Sub = filepath.Join(w.Dir, rel)
		}
	}
	if err := os.MkdirAll(parent, 0o700); err != nil {
		return nil, fmt.Errorf("making the worktrees folder: %w", err)
	}
	if _, err := gitCmd(ctx, env, top, "worktree", "add", "-q", "-b", w.Branch, w.Dir, w.Base); err != nil {
		return nil, fmt.Errorf("creating the run's worktree: %w", err)
	}
	return w, nil
}

// finish commits what the run left in the worktree to its branch, reads the
// branch's diff and removes the worktree. The branch stays (with the work)
// until the user discards it; a branch with no changes is deleted.
func (w *worktree) finish(ctx context.Context, message string) (stat, diff string, kept bool, err error) {
	// Runs on every path, including after a cancel: the caller's context may
	// be done already.
	ctx = context.WithoutCancel(ctx)
	defer w.remove(ctx)
	status, err := gitCmd(ctx, w.env, w.Dir, "status", "--porcelain")
	if err != nil {
		return "", "", true, fmt.Errorf("reading the run's changes: %w", err)
	}
	if strings.TrimSpace(status) != "" {
		if _, err := gitCmd(ctx, w.env, w.Dir, "add", "-A"); err != nil {
			return "", "", true, fmt.Errorf("staging the run's changes: %w", err)
		}
		if _, err := gitCmd(ctx, w.env, w.Dir, "-c", "user.name=osFoundry", "-c", "user.email=runs@osfoundry.invalid",
			"-c", "commit.gpgsign=false", "commit", "-q", "--no-verify", "-m", message); err != nil {
			return "", "", true, fmt.Errorf("saving the run's changes on %s: %w", w.Branch, err)
		}
	}
	head, err := gitCmd(ctx, w.env, w.Dir, "rev-parse", "HEAD")
	if err != nil {
		return "", "", true, fmt.Errorf("reading the run branch: %w", err)
	}
	if strings.TrimSpace(head) == w.Base {
		return "", "", false, nil
	}
	stat, _ = gitCmd(ctx, w.env, w.Repo, "diff", "--stat", w.Base, w.Branch)
	diff, err = gitCmd(ctx, w.env, w.Repo, "diff", w.Base, w.Branch)
	if err != nil {
		return stat, "", true, fmt.Errorf("reading the run's diff: %w", err)
	}
	if len(diff) > maxDiff {
		diff = clip(diff, maxDiff) + "\n(diff cut at 256 KB; the branch has all of it)\n"
	}
	return strings.TrimSpace(stat), diff, true, nil
}

// remove deletes the worktree folder and its registration.
func (w *worktree) remove(ctx context.Context) {
	if _, err := gitCmd(ctx, w.env, w.Repo, "worktree", "remove", "--force", w.Dir); err != nil {
		os.RemoveAll(w.Dir)                             //nolint:errcheck // best effort, prune below forgets it
		gitCmd(ctx, w.env, w.Repo, "worktree", "prune") //nolint:errcheck // best effort
	}
}

// deleteBranch removes an empty run branch.
func (w *worktree) deleteBranch(ctx context.Context) {
	gitCmd(context.WithoutCancel(ctx), w.env, w.Repo, "branch", "-D", w.Branch) //nolint:errcheck // best effort
}

// DiscardBranch deletes a run branch the user no longer wants, running git
// with env (the runner's, Runner.Env). Only osf/run-* branches can be
// discarded this way.
func DiscardBranch(ctx context.Context, env []string, repo, branch string) error {
	if !strings.HasPrefix(branch, BranchPrefix) || strings.ContainsAny(branch, " \t\n~^:?*[\\") {
		return fmt.Errorf("discarding %q: only run branches (%s…) can be discarded here", branch, BranchPrefix)
	}
	if _, err := gitCmd(ctx, env, repo, "branch", "-D", "--", branch); err != nil {
		return fmt.Errorf("discarding the run branch %s: %w", branch, err)
	}
	return nil
}
