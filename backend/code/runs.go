package code

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/osfoundry/desktop/backend/runs"
)

// Decisions on an isolated run's branch.
const (
	DecisionNone      = ""
	DecisionKept      = "kept"
	DecisionDiscarded = "discarded"
)

// Run is one isolated run on the Code screen: the run with its branch,
// the files it changed and what the user decided.
type Run struct {
	runs.Run
	Workspace string        `json:"workspace"`
	Decision  string        `json:"decision"`
	Files     []ChangedFile `json:"files"`
}

// ChangedFile is one file of a run's diff.
type ChangedFile struct {
	Path    string `json:"path"`
	Status  string `json:"status"` // "added", "deleted", "modified", "renamed"
	Added   int    `json:"added"`
	Removed int    `json:"removed"`
	Binary  bool   `json:"binary,omitempty"`
	// Patch is this file's part of the diff.
	Patch string `json:"patch"`
}

// Runs lists a workspace's isolated runs, newest first, leaving out the
// ones whose branch was discarded (here, or from the chat: a diff without
// its branch).
func (s *Service) Runs(ctx context.Context, workspace string) ([]Run, error) {
	ws := wsOrDefault(workspace)
	rs, err := s.o.Engine.Select(ctx, `id IN (SELECT run_id FROM pipeline_code_runs WHERE workspace = ? AND decision <> ?) AND NOT (branch = '' AND diff <> '')`, ws, DecisionDiscarded)
	if err != nil {
		return nil, err
	}
	slices.Reverse(rs)
	out := make([]Run, 0, len(rs))
	for _, r := range rs {
		cr := Run{Run: r, Workspace: ws, Files: SplitDiff(r.Diff)}
		if err := s.db.QueryRowContext(ctx, `SELECT decision FROM pipeline_code_runs WHERE run_id = ?`, r.ID).Scan(&cr.Decision); err != nil {
			return nil, fmt.Errorf("reading run %s's decision: %w", r.ID, err)
		}
		out = append(out, cr)
	}
	return out, nil
}

// Keep keeps an isolated run's branch: the branch stays for the user to
// merge, the worktree goes (a worktree left by an interrupted run is
// finished first, its changes committed to the branch, as at start-up).
func (s *Service) Keep(ctx context.Context, runID string) (Run, error) {
	r, err := s.settleWorktree(ctx, runID)
	if err != nil {
		return Run{}, err
	}
	if r.Branch == "" {
		return Run{}, fmt.Errorf("run %s changed no files, so it has no branch to keep: discard it to remove it from the list", runID)
	}
	if err := s.decide(ctx, runID, DecisionKept); err != nil {
		return Run{}, err
	}
	return s.run(ctx, runID)
}

// Discard removes an isolated run's worktree and branch, and the run from
// the Code screen's list.
func (s *Service) Discard(ctx context.Context, runID string) error {
	r, err := s.settleWorktree(ctx, runID)
	if err != nil {
		return err
	}
	if r.Branch != "" {
		d, err := s.o.Engine.DiscardBranch(ctx, runID)
		if err != nil {
			return err
		}
		s.o.Changed(d.ChatID)
	}
	return s.decide(ctx, runID, DecisionDiscarded)
}

// settleWorktree refuses a run still going and finishes a worktree the run
// left behind (agentcli.RecoverWorktree, as for a run the app was killed
// in), recording its branch and diff.
func (s *Service) settleWorktree(ctx context.Context, runID string) (runs.Run, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM pipeline_code_runs WHERE run_id = ?`, runID).Scan(&n); err != nil {
		return runs.Run{}, fmt.Errorf("reading run %s: %w", runID, err)
	}
	if n == 0 {
		return runs.Run{}, fmt.Errorf("run %s did not work in a worktree", runID)
	}
	return s.o.Engine.SettleWorktree(ctx, runID)
}

func (s *Service) decide(ctx context.Context, runID, decision string) error {
	if _, err := s.db.ExecContext(ctx, `UPDATE pipeline_code_runs SET decision = ? WHERE run_id = ?`, decision, runID); err != nil {
		return fmt.Errorf("recording the decision on run %s: %w", runID, err)
	}
	s.o.Changed("")
	return nil
}

func (s *Service) run(ctx context.Context, runID string) (Run, error) {
	r, err := s.o.Engine.Get(ctx, runID)
	if err != nil {
		return Run{}, err
	}
	cr := Run{Run: r, Files: SplitDiff(r.Diff)}
	if err := s.db.QueryRowContext(ctx, `SELECT workspace, decision FROM pipeline_code_runs WHERE run_id = ?`, runID).Scan(&cr.Workspace, &cr.Decision); err != nil {
		return cr, fmt.Errorf("reading run %s: %w", runID, err)
	}
	return cr, nil
}

// SplitDiff cuts a `git diff` into its files, with each file's status and
// counts of added and removed lines.
func SplitDiff(diff string) []ChangedFile {
	out := []ChangedFile{}
	var cur *ChangedFile
	var patch strings.Builder
	flush := func() {
		if cur != nil {
			cur.Patch = patch.String()
			out = append(out, *cur)
		}
		patch.Reset()
	}
	inHunk := false
	for _, l := range strings.SplitAfter(diff, "\n") {
		line := strings.TrimRight(l, "\n")
		if strings.HasPrefix(line, "diff --git ") {
			flush()
			cur = &ChangedFile{Path: diffPath(line), Status: "modified"}
			inHunk = false
		}
		if cur == nil {
			continue
		}
		patch.WriteString(l)
		switch {
		case strings.HasPrefix(line, "@@"):
			inHunk = true
		case !inHunk && strings.HasPrefix(line, "new file mode"):
			cur.Status = "added"
		case !inHunk && strings.HasPrefix(line, "deleted file mode"):
			cur.Status = "deleted"
		case !inHunk && strings.HasPrefix(line, "rename to "):
			cur.Status, cur.Path = "renamed", strings.TrimPrefix(line, "rename to ")
		case !inHunk && strings.HasPrefix(line, "Binary files "):
			cur.Binary = true
		case inHunk && strings.HasPrefix(line, "+"):
			cur.Added++
		case inHunk && strings.HasPrefix(line, "-"):
			cur.Removed++
		}
	}
	flush()
	return out
}

// diffPath is the b/ side of a "diff --git a/x b/x" line.
func diffPath(line string) string {
	rest := strings.TrimPrefix(line, "diff --git ")
	if i := strings.LastIndex(rest, " b/"); i >= 0 {
		return strings.Trim(rest[i+3:], `"`)
	}
	return rest
}
