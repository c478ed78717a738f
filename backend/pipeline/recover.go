package pipeline

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/osfoundry/desktop/backend/agentcli"
)

// ErrInterrupted is the error an interrupted run is recorded with: the app
// stopped (quit, crashed or was killed) while the run was going.
const ErrInterrupted = "Interrupted: osFoundry stopped while this run was going. What it had done so far is kept below; send the task again to continue."

// recoverInterrupted closes the runs that were going when the app last
// stopped. Each keeps the answer text and steps it had streamed (written as
// they came), its chat says it was interrupted, and a worktree run's
// changes are committed to its branch, offered to keep or discard like a
// finished run's.
func (s *Service) recoverInterrupted(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, `SELECT id, chat_id, worktree FROM pipeline_runs WHERE state = ?`, StateRunning)
	if err != nil {
		return fmt.Errorf("reading interrupted runs: %w", err)
	}
	type lost struct{ id, chat, wt string }
	var runs []lost
	for rows.Next() {
		var l lost
		if err := rows.Scan(&l.id, &l.chat, &l.wt); err != nil {
			rows.Close()
			return fmt.Errorf("reading interrupted runs: %w", err)
		}
		runs = append(runs, l)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading interrupted runs: %w", err)
	}
	now := s.now().UnixMilli()
	for _, l := range runs {
		errText, branch, stat, diff := ErrInterrupted, "", "", ""
		var wt agentcli.WorktreeInfo
		if l.wt != "" && json.Unmarshal([]byte(l.wt), &wt) == nil {
			st, d, kept, err := agentcli.RecoverWorktree(ctx, wt, "osFoundry run "+l.id+" (interrupted)")
			if kept {
				branch, stat, diff = wt.Branch, st, d
			}
			if err != nil {
				errText += " Its worktree could not be finished: " + err.Error()
			}
		}
		if _, err := s.db.ExecContext(ctx, `UPDATE pipeline_runs SET state = ?, error = ?, branch = ?, diff_stat = ?, diff = ?,
			repo = CASE WHEN ? <> '' THEN ? ELSE repo END, worktree = '', finished_at = ? WHERE id = ?`,
			StateFailed, errText, branch, stat, diff, wt.Repo, wt.Repo, now, l.id); err != nil {
			return fmt.Errorf("closing interrupted run %s: %w", l.id, err)
		}
		if l.chat != "" {
			if _, err := s.db.ExecContext(ctx, `INSERT INTO pipeline_messages(chat_id, role, text, run_id, created_at) VALUES(?,?,?,?,?)`,
				l.chat, "error", errText, l.id, now); err != nil {
				return fmt.Errorf("closing interrupted run %s: %w", l.id, err)
			}
		}
	}
	return nil
}

// recordWorktree notes where a worktree run works, before its CLI starts.
func (s *Service) recordWorktree(runID string, wt agentcli.WorktreeInfo) {
	b, _ := json.Marshal(wt)
	s.db.ExecContext(context.Background(), `UPDATE pipeline_runs SET worktree = ?, repo = ? WHERE id = ?`, string(b), wt.Repo, runID) //nolint:errcheck // a lost note only loses crash recovery
}

// persistPartial appends streamed answer text to the run's row, so a run
// the app is killed in keeps what it had said.
func (s *Service) persistPartial(runID, text string) {
	s.db.ExecContext(context.Background(), `UPDATE pipeline_runs SET text = text || ? WHERE id = ? AND state = ?`, text, runID, StateRunning) //nolint:errcheck // the final result overwrites it
}

// persistProgress writes the run's steps so far.
func (s *Service) persistProgress(runID string, progress []string) {
	b, _ := json.Marshal(progress)
	s.db.ExecContext(context.Background(), `UPDATE pipeline_runs SET progress = ? WHERE id = ? AND state = ?`, string(b), runID, StateRunning) //nolint:errcheck // the final result overwrites it
}
