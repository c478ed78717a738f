package agentcli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
)

// WorktreeInfo says where a worktree run works: enough to finish the
// worktree when the process that ran it was killed.
type WorktreeInfo struct {
	Repo   string `json:"repo"`   // the repository's top folder
	Dir    string `json:"dir"`    // the worktree folder
	Branch string `json:"branch"` // osf/run-<id>
	Base   string `json:"base"`   // commit the branch starts from
}

func (w *worktree) info() WorktreeInfo {
	return WorktreeInfo{Repo: w.Repo, Dir: w.Dir, Branch: w.Branch, Base: w.Base}
}

// RecoverWorktree finishes the worktree of a run whose process died (the
// app was killed mid-run): what the run left in it is committed to its
// branch, which is kept when it holds changes and deleted otherwise, and
// the worktree folder is removed. It returns the branch's diff like a
// finished run's. A worktree already gone keeps whatever its branch holds.
// git runs with env (the runner's, Runner.Env).
func RecoverWorktree(ctx context.Context, env []string, in WorktreeInfo, message string) (stat, diff string, kept bool, err error) {
	if !strings.HasPrefix(in.Branch, BranchPrefix) || in.Repo == "" || in.Dir == "" || in.Base == "" {
		return "", "", false, fmt.Errorf("recovering a run's worktree: %q is not a run worktree", in.Branch)
	}
	w := &worktree{Repo: in.Repo, Dir: in.Dir, Sub: in.Dir, Branch: in.Branch, Base: in.Base, env: env}
	if _, err := os.Stat(in.Dir); errors.Is(err, os.ErrNotExist) {
		gitCmd(ctx, w.env, w.Repo, "worktree", "prune") //nolint:errcheck // best effort
		head, err := gitCmd(ctx, w.env, w.Repo, "rev-parse", "--verify", "refs/heads/"+w.Branch)
		if err != nil {
			return "", "", false, nil // neither worktree nor branch: nothing was kept
		}
		if strings.TrimSpace(head) == w.Base {
			w.deleteBranch(ctx)
			return "", "", false, nil
		}
		stat, _ = gitCmd(ctx, w.env, w.Repo, "diff", "--stat", w.Base, w.Branch)
		diff, err = gitCmd(ctx, w.env, w.Repo, "diff", w.Base, w.Branch)
		if len(diff) > maxDiff {
			diff = clip(diff, maxDiff) + "\n(diff cut at 256 KB; the branch has all of it)\n"
		}
		return strings.TrimSpace(stat), diff, true, err
	}
	stat, diff, kept, err = w.finish(ctx, message)
	if !kept {
		w.deleteBranch(ctx)
	}
	return stat, diff, kept, err
}
