package review

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/terminal"
	"github.com/osfoundry/desktop/backend/worktree"
)

// Merge modes of Finish.
const (
	ModeMerge  = "merge"  // a merge commit on the base
	ModeSquash = "squash" // the branch's work as one new commit on the base
	ModeRebase = "rebase" // the branch's commits replayed on the base, which moves to the last
)

// Errors callers branch on.
var (
	ErrNothingToMerge = errors.New("the branch has nothing its base does not have")
	ErrBaseDirty      = errors.New("the base's checkout has uncommitted changes")
	ErrBaseGone       = errors.New("the base branch no longer exists")
)

// FinishPlan is what the Finish panel says before the person merges.
type FinishPlan struct {
	Base         string   `json:"base"`
	Branch       string   `json:"branch"`
	Commits      int      `json:"commits"`      // on the branch and not on the base
	Uncommitted  []string `json:"uncommitted"`  // files the agent has not committed (they are committed first)
	BaseCheckout string   `json:"baseCheckout"` // the folder where the base is checked out ("" when none)
	// Problem says why Finish cannot merge now (the base's checkout is
	// dirty, the base is gone); "" when it can.
	Problem string `json:"problem"`
}

// FinishRequest is the person's choice in the Finish panel.
type FinishRequest struct {
	Mode    string `json:"mode"`    // ModeMerge, ModeSquash or ModeRebase
	Message string `json:"message"` // the merge or squash commit's message ("": a default)
}

// Conflict is one file the merge could not combine, with its conflicting
// parts as git marked them.
type Conflict struct {
	Path string `json:"path"`
	Text string `json:"text"`
}

// FinishResult says what Finish did. With Conflicts nothing was changed.
type FinishResult struct {
	Merged    bool       `json:"merged"`
	Commit    string     `json:"commit"` // the base's new last commit
	Base      string     `json:"base"`
	Conflicts []Conflict `json:"conflicts"`
}

// FinishPlan reads what merging the pane's branch would involve.
func (s *Service) FinishPlan(pane string) (FinishPlan, error) {
	b, err := s.branchOf(pane)
	if err != nil {
		return FinishPlan{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return s.plan(ctx, b)
}

func (s *Service) plan(ctx context.Context, b *terminal.Branch) (FinishPlan, error) {
	env := s.env()
	p := FinishPlan{Base: b.Base, Branch: b.Name, Uncommitted: []string{}}
	if _, err := worktree.Git(ctx, env, b.Repo, "rev-parse", "--verify", "-q", "refs/heads/"+b.Base); err != nil {
		p.Problem = fmt.Sprintf("%s: %v — recreate it, or merge the branch by hand", b.Base, ErrBaseGone)
		return p, nil
	}
	n, err := worktree.Git(ctx, env, b.Worktree, "rev-list", "--count", "refs/heads/"+b.Base+"..HEAD")
	if err != nil {
		return p, fmt.Errorf("counting the commits of %s: %w", b.Name, err)
	}
	fmt.Sscan(strings.TrimSpace(n), &p.Commits) //nolint:errcheck // git prints a number
	st, err := worktree.Git(ctx, env, b.Worktree, "status", "--porcelain", "-z", "--untracked-files=all")
	if err != nil {
		return p, fmt.Errorf("reading the uncommitted work of %s: %w", b.Worktree, err)
	}
	for _, rec := range strings.Split(strings.TrimSuffix(st, "\x00"), "\x00") {
		if len(rec) > 3 {
			p.Uncommitted = append(p.Uncommitted, rec[3:])
		}
	}
	if p.BaseCheckout, err = checkoutOf(ctx, env, b.Repo, b.Base); err != nil {
		return p, err
	}
	if p.BaseCheckout != "" {
		if dirty, _ := worktree.Git(ctx, env, p.BaseCheckout, "status", "--porcelain", "--untracked-files=no"); strings.TrimSpace(dirty) != "" {
			p.Problem = fmt.Sprintf("%v (%s): commit or stash them there, then Finish again — nothing was changed", ErrBaseDirty, p.BaseCheckout)
		}
	}
	if p.Problem == "" && p.Commits == 0 && len(p.Uncommitted) == 0 {
		p.Problem = fmt.Sprintf("%s: %v yet", b.Name, ErrNothingToMerge)
	}
	return p, nil
}

// checkoutOf is the worktree where branch is checked out ("" when none).
func checkoutOf(ctx context.Context, env []string, repo, branch string) (string, error) {
	out, err := worktree.Git(ctx, env, repo, "worktree", "list", "--porcelain")
	if err != nil {
		return "", fmt.Errorf("listing the worktrees of %s: %w", repo, err)
	}
	dir := ""
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, "worktree "):
			dir = strings.TrimPrefix(line, "worktree ")
		case line == "branch refs/heads/"+branch:
			return filepath.FromSlash(dir), nil
		}
	}
	return "", nil
}

// Finish merges the pane's branch into its base (Mode), first committing
// what the agent left uncommitted. The merge is made in a throw-away
// worktree; only when it succeeded does the base move. On conflicts the
// result lists them and nothing was changed.
func (s *Service) Finish(pane string, req FinishRequest) (FinishResult, error) {
	b, err := s.branchOf(pane)
	if err != nil {
		return FinishResult{}, err
	}
	s.finishMu.Lock()
	defer s.finishMu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	res, err := s.finish(ctx, b, req)
	if err == nil && res.Merged {
		s.changed(pane)
	}
	return res, err
}

func (s *Service) finish(ctx context.Context, b *terminal.Branch, req FinishRequest) (FinishResult, error) {
	if req.Mode != ModeMerge && req.Mode != ModeSquash && req.Mode != ModeRebase {
		return FinishResult{}, fmt.Errorf("merge mode %q: choose merge, squash or rebase", req.Mode)
	}
	plan, err := s.plan(ctx, b)
	if err != nil {
		return FinishResult{}, err
	}
	if plan.Problem != "" {
		return FinishResult{}, errors.New(plan.Problem)
	}
	env := s.env()
	git := func(dir string, args ...string) (string, error) {
		out, err := worktree.Git(ctx, env, dir, args...)
		return strings.TrimSpace(out), err
	}
	baseOld, err := git(b.Repo, "rev-parse", "refs/heads/"+b.Base)
	if err != nil {
		return FinishResult{}, fmt.Errorf("reading %s: %w", b.Base, err)
	}
	head, err := git(b.Worktree, "rev-parse", "HEAD")
	if err != nil {
		return FinishResult{}, fmt.Errorf("reading %s: %w", b.Name, err)
	}
	tip, err := snapshot(ctx, env, b, head, len(plan.Uncommitted) > 0)
	if err != nil {
		return FinishResult{}, err
	}
	msg := strings.TrimSpace(req.Message)
	if msg == "" {
		msg = defaultMessage(req.Mode, b)
	}
	tmp := worktree.Folder(b.Repo, fmt.Sprintf(".finish-%d", time.Now().UnixNano()))
	if _, err := git(b.Repo, "worktree", "add", "-q", "--detach", tmp, baseOld); err != nil {
		return FinishResult{}, fmt.Errorf("preparing the merge: %w — nothing was changed", err)
	}
	defer func() {
		worktree.Git(context.Background(), env, b.Repo, "worktree", "remove", "--force", tmp) //nolint:errcheck // best effort, then pruned
		os.RemoveAll(tmp)                                                                     //nolint:errcheck // best effort
		worktree.Git(context.Background(), env, b.Repo, "worktree", "prune")                  //nolint:errcheck // best effort
	}()
	var mergeErr error
	switch req.Mode {
	case ModeMerge:
		_, mergeErr = git(tmp, "merge", "--no-ff", "-q", "-m", msg, tip)
	case ModeSquash:
		if _, mergeErr = git(tmp, "merge", "--squash", "-q", tip); mergeErr == nil {
			_, mergeErr = git(tmp, "commit", "-q", "-m", msg)
		}
	case ModeRebase:
		if _, mergeErr = git(tmp, "checkout", "-q", "--detach", tip); mergeErr == nil {
			_, mergeErr = git(tmp, "rebase", "-q", baseOld)
		}
	}
	if mergeErr != nil {
		cs := conflicts(ctx, env, tmp)
		if req.Mode == ModeRebase {
			git(tmp, "rebase", "--abort") //nolint:errcheck // the folder goes anyway
		} else {
			git(tmp, "merge", "--abort") //nolint:errcheck // the folder goes anyway
		}
		if len(cs) > 0 {
			return FinishResult{Base: b.Base, Conflicts: cs}, nil
		}
		return FinishResult{}, fmt.Errorf("merging %s into %s: %w — nothing was changed", b.Name, b.Base, mergeErr)
	}
	newHead, err := git(tmp, "rev-parse", "HEAD")
	if err != nil {
		return FinishResult{}, fmt.Errorf("reading the merge: %w — nothing was changed", err)
	}
	if plan.BaseCheckout != "" {
		if _, err := git(plan.BaseCheckout, "merge", "--ff-only", "-q", newHead); err != nil {
			return FinishResult{}, fmt.Errorf("moving %s in %s: %w — nothing was changed", b.Base, plan.BaseCheckout, err)
		}
	} else if _, err := git(b.Repo, "update-ref", "-m", "osfoundry: finish "+b.Name, "refs/heads/"+b.Base, newHead, baseOld); err != nil {
		return FinishResult{}, fmt.Errorf("moving %s: %w — nothing was changed", b.Base, err)
	}
	if tip != head {
		// The agent's uncommitted work is now its branch's last commit; the
		// worktree's files already hold it, its index follows.
		if _, err := git(b.Repo, "update-ref", "refs/heads/"+b.Name, tip, head); err == nil {
			git(b.Worktree, "reset", "-q") //nolint:errcheck // only the index; the files are the commit's
		}
	}
	return FinishResult{Merged: true, Commit: newHead, Base: b.Base, Conflicts: []Conflict{}}, nil
}

func defaultMessage(mode string, b *terminal.Branch) string {
	if mode == ModeSquash {
		return "Work from " + b.Name
	}
	return "Merge " + b.Name + " into " + b.Base
}

// snapshot is the commit Finish merges: the branch's last commit, or when
// the agent left work uncommitted, a new commit of it on top, made with an
// index of its own so the agent's index and files are not touched.
func snapshot(ctx context.Context, env []string, b *terminal.Branch, head string, dirty bool) (string, error) {
	if !dirty {
		return head, nil
	}
	dir, err := os.MkdirTemp("", "osf-finish-")
	if err != nil {
		return "", fmt.Errorf("committing the uncommitted work: %w", err)
	}
	defer os.RemoveAll(dir)
	ienv := append(append([]string(nil), env...), "GIT_INDEX_FILE="+filepath.Join(dir, "index"))
	for _, args := range [][]string{{"read-tree", head}, {"add", "-A"}} {
		if _, err := worktree.Git(ctx, ienv, b.Worktree, args...); err != nil {
			return "", fmt.Errorf("committing the uncommitted work of %s: %w — nothing was changed", b.Name, err)
		}
	}
	tree, err := worktree.Git(ctx, ienv, b.Worktree, "write-tree")
	if err != nil {
		return "", fmt.Errorf("committing the uncommitted work of %s: %w — nothing was changed", b.Name, err)
	}
	c, err := worktree.Git(ctx, env, b.Worktree, "commit-tree", strings.TrimSpace(tree), "-p", head, "-m", "Uncommitted work on "+b.Name)
	if err != nil {
		return "", fmt.Errorf("committing the uncommitted work of %s: %w — set your name and email with `git config --global user.name/user.email`; nothing was changed", b.Name, err)
	}
	return strings.TrimSpace(c), nil
}

// conflicts lists the files a failed merge left unmerged in dir, each with
// the parts git marked and a few lines around them.
func conflicts(ctx context.Context, env []string, dir string) []Conflict {
	out, err := worktree.Git(ctx, env, dir, "diff", "--name-only", "-z", "--diff-filter=U")
	if err != nil {
		return nil
	}
	cs := []Conflict{}
	for _, name := range strings.Split(strings.TrimSuffix(out, "\x00"), "\x00") {
		if name == "" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		text := "(the file could not be read)"
		if err == nil {
			text = markedParts(string(b), 3)
		}
		cs = append(cs, Conflict{Path: name, Text: text})
	}
	return cs
}

// markedParts keeps the conflict-marked regions of text with context
// lines around each.
func markedParts(text string, context int) string {
	lines := strings.Split(text, "\n")
	keep := make([]bool, len(lines))
	in := false
	for i, l := range lines {
		start := strings.HasPrefix(l, "<<<<<<< ")
		if start {
			in = true
		}
		if in {
			for j := max(0, i-context); j <= min(len(lines)-1, i+context); j++ {
				keep[j] = true
			}
		}
		if strings.HasPrefix(l, ">>>>>>> ") {
			in = false
		}
	}
	var b strings.Builder
	gap := false
	for i, l := range lines {
		if !keep[i] {
			gap = true
			continue
		}
		if gap && b.Len() > 0 {
			b.WriteString("…\n")
		}
		gap = false
		b.WriteString(l + "\n")
	}
	if b.Len() == 0 {
		return "(both sides changed this file in ways git could not combine — e.g. one deleted it)"
	}
	return b.String()
}
