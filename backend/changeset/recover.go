package changeset

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/osfoundry/desktop/backend/lazy"
)

// What Apply leaves behind when its process is killed, and how the next
// Apply finds it: its temporary folder is named tempDirPrefix+pid+"-"+random
// and the commit carries proposalTrailer.
//
// Earlier versions approved in a worktree whose folder was named
// worktreeDirPrefix+random, locked with a reason naming the process; the
// next Apply still removes such a worktree when its process is gone.
const (
	tempDirPrefix     = "osfoundry-approval-"
	worktreeDirPrefix = "osfoundry-proposal-"
	proposalTrailer   = "Osfoundry-Proposal"
)

var (
	lockPID = lazy.Regexp(`^osfoundry proposal \S+ \(pid (\d+)\)$`)
	tempPID = lazy.Regexp(`^` + tempDirPrefix + `(\d+)-`)
)

// removeAbandoned removes what approvals killed midway left: their
// temporary folders, and the worktrees earlier versions made. Anything of
// a running approval, in this or another process, is left alone, and so
// is every other worktree of the repository: one on a drive that is not
// plugged in stays registered (no "git worktree prune").
func removeAbandoned(ctx context.Context, repo string) {
	removeAbandonedTemp()
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
		if locked {
			m := lockPID().FindStringSubmatch(reason)
			if m == nil {
				continue // locked by someone else, for their own reason
			}
			if pid, err := strconv.Atoi(m[1]); err != nil || alive(pid) {
				continue
			}
		}
		// Twice --force removes a locked worktree, also one whose folder
		// is gone, and only that one.
		runGit(ctx, repo, nil, "worktree", "remove", "--force", "--force", path) //nolint:errcheck // best effort
		os.RemoveAll(filepath.Dir(path))
	}
}

// removeAbandonedTemp removes the temporary folders of approvals whose
// process is gone.
func removeAbandonedTemp() {
	matches, _ := filepath.Glob(filepath.Join(os.TempDir(), tempDirPrefix+"*"))
	for _, dir := range matches {
		m := tempPID().FindStringSubmatch(filepath.Base(dir))
		if m == nil {
			continue
		}
		if pid, err := strconv.Atoi(m[1]); err == nil && pid != os.Getpid() && !alive(pid) {
			os.RemoveAll(dir)
		}
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
