package review

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/worktree"
)

// ArchiveRequest: what Archive also does.
type ArchiveRequest struct {
	// Discard removes the worktree even with work not committed (the
	// person confirmed losing it).
	Discard bool `json:"discard"`
	// DeleteBranch deletes the branch too; otherwise it stays.
	DeleteBranch bool `json:"deleteBranch"`
}

// Archive closes the pane and removes its worktree folder; the branch
// stays unless the person asks to delete it. Work not committed refuses
// unless Discard, before anything is closed.
func (s *Service) Archive(pane string, req ArchiveRequest) error {
	b, err := s.branchOf(pane)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	env := s.env()
	if !req.Discard {
		st, err := worktree.Git(ctx, env, b.Worktree, "status", "--porcelain", "--untracked-files=normal")
		if err != nil {
			return fmt.Errorf("reading the worktree %s: %w", b.Worktree, err)
		}
		if n := len(strings.Split(strings.TrimSpace(st), "\n")); strings.TrimSpace(st) != "" {
			return fmt.Errorf("%s has %d uncommitted %s: Finish first to keep them, or archive anyway to discard them — nothing was changed", b.Worktree, n, plural(n, "file", "files"))
		}
	}
	if err := s.panes.Close(pane); err != nil {
		return fmt.Errorf("closing the pane: %w", err)
	}
	s.Forget(pane)
	if _, err := worktree.Git(ctx, env, b.Repo, "worktree", "remove", "--force", b.Worktree); err != nil {
		if _, statErr := os.Stat(b.Worktree); statErr == nil {
			return fmt.Errorf("removing the worktree %s: %w — the pane is closed; remove the folder by hand", b.Worktree, err)
		}
	}
	worktree.Git(ctx, env, b.Repo, "worktree", "prune") //nolint:errcheck // best effort
	os.Remove(filepath.Dir(b.Worktree))                 //nolint:errcheck // only when empty
	if req.DeleteBranch {
		if _, err := worktree.Git(ctx, env, b.Repo, "branch", "-D", "--", b.Name); err != nil {
			return fmt.Errorf("deleting %s: %w — the worktree was archived", b.Name, err)
		}
	}
	s.changed(pane)
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
