package changeset

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// What Apply leaves behind when its process is killed, and how the next
// Apply finds it: the worktree folder is named worktreeDirPrefix+random,
// its worktree is locked with lockReason (which names the process), and
// the commit carries proposalTrailer.
const (
	worktreeDirPrefix = "osfoundry-proposal-"
	proposalTrailer   = "Osfoundry-Proposal"
)

func lockReason(id string) string {
	return fmt.Sprintf("osfoundry proposal %s (pid %d)", id, os.Getpid())
}

var lockPID = regexp.MustCompile(`^osfoundry proposal \S+ \(pid (\d+)\)$`)

// removeWorktree removes an approval's worktree and its folder.
func removeWorktree(ctx context.Context, repo, wt string) {
	// Twice --force removes a locked worktree; one whose folder is gone
	// is unlocked so prune drops it.
	if _, err := runGit(ctx, repo, nil, "worktree", "remove", "--force", "--force", wt); err != nil {
		runGit(ctx, repo, nil, "worktree", "unlock", wt) //nolint:errcheck // may be unlocked already
	}
	runGit(ctx, repo, nil, "worktree", "prune") //nolint:errcheck // best effort
	if dir := filepath.Dir(wt); filepath.Base(wt) == "worktree" && strings.HasPrefix(filepath.Base(dir), worktreeDirPrefix) {
		os.RemoveAll(dir)
	}
}

// removeAbandoned removes the worktrees of approvals whose process is gone
// (killed mid-approval). A worktree of a running approval, in this or
// another process, is left alone.
func removeAbandoned(ctx context.Context, repo string) {
	out, err := runGit(ctx, repo, nil, "worktree", "list", "--porcelain")
	if err != nil {
		return
	}
	for _, block := range strings.Split(out, "\n\n") {
		var path, reason string
		locked := false
		for _, l := range strings.Split(block, "\n") {
			if p, ok := strings.CutPrefix(l, "worktree "); ok {
				path = p
			}
			if l == "locked" || strings.HasPrefix(l, "locked ") {
				locked = true
				reason = strings.TrimPrefix(strings.TrimPrefix(l, "locked"), " ")
			}
		}
		if filepath.Base(path) != "worktree" || !strings.HasPrefix(filepath.Base(filepath.Dir(path)), worktreeDirPrefix) {
			continue
		}
		// A running approval's worktree is locked from the moment it is
		// made; an unlocked one was being removed (or is an older
		// version's) and is removed again.
		if locked {
			m := lockPID.FindStringSubmatch(reason)
			if m == nil {
				continue // locked by someone else, for their own reason
			}
			if pid, err := strconv.Atoi(m[1]); err != nil || alive(pid) {
				continue
			}
		}
		removeWorktree(ctx, repo, path)
	}
}

// madeBefore returns the commit on branch when an earlier approval of
// proposal id made it (and its process died before it was recorded): the
// branch's one commit on top of where it started, by osFoundry, carrying
// the proposal's trailer.
func madeBefore(ctx context.Context, repo, branch, id string) (Result, bool) {
	out, err := runGit(ctx, repo, nil, "log", "-1", "--format=%H%x00%an%x00%B", "refs/heads/"+branch)
	if err != nil {
		return Result{}, false
	}
	parts := strings.SplitN(out, "\x00", 3)
	if len(parts) != 3 || parts[1] != AuthorName {
		return Result{}, false
	}
	found := false
	for _, l := range strings.Split(parts[2], "\n") {
		if strings.TrimSpace(l) == proposalTrailer+": "+id {
			found = true
		}
	}
	if !found {
		return Result{}, false
	}
	res, err := described(ctx, repo, strings.TrimSpace(parts[0]))
	if err != nil {
		return Result{}, false
	}
	res.Branch = branch
	return res, true
}
