package runs

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/cost"
)

// The pipeline_runs table is created by backend/pipeline's migrations
// (store component "pipeline"), which came before this package; every
// query on it is here.

func (e *Engine) insert(ctx context.Context, r Run) error {
	if _, err := e.db.ExecContext(ctx, `INSERT INTO pipeline_runs(id, chat_id, agent_id, title, model, role, folder, state, started_at)
		VALUES(?,?,?,?,?,?,?,?,?)`, r.ID, r.ChatID, r.AgentID, r.Title, r.Model, r.Role, r.Folder, r.State, r.StartedAt); err != nil {
		return fmt.Errorf("recording the run: %w", err)
	}
	return nil
}

// Get returns one run (a frozen run in progress reads StatePaused).
func (e *Engine) Get(ctx context.Context, id string) (Run, error) {
	rs, err := e.Select(ctx, `id = ?`, id)
	if err != nil {
		return Run{}, err
	}
	if len(rs) == 0 {
		return Run{}, fmt.Errorf("no run %s", id)
	}
	return rs[0], nil
}

// Select returns the runs where a condition on pipeline_runs' columns
// holds (args are its placeholders), oldest first, with the live progress
// and paused state of those in progress.
func (e *Engine) Select(ctx context.Context, where string, args ...any) ([]Run, error) {
	rows, err := e.db.QueryContext(ctx, `SELECT id, chat_id, agent_id, title, model, role, folder, state, text, error, progress, usage,
		cost_usd, reported_cost_usd, session_id, repo, branch, diff_stat, diff, started_at, finished_at FROM pipeline_runs WHERE `+where+` ORDER BY started_at`, args...)
	if err != nil {
		return nil, fmt.Errorf("reading runs: %w", err)
	}
	defer rows.Close()
	out := []Run{}
	for rows.Next() {
		var r Run
		var prog, usage string
		var st, fin int64
		if err := rows.Scan(&r.ID, &r.ChatID, &r.AgentID, &r.Title, &r.Model, &r.Role, &r.Folder, &r.State, &r.Text, &r.Error,
			&prog, &usage, &r.CostUSD, &r.ReportedCostUSD, &r.SessionID, &r.Repo, &r.Branch, &r.DiffStat, &r.Diff, &st, &fin); err != nil {
			return nil, fmt.Errorf("reading runs: %w", err)
		}
		json.Unmarshal([]byte(prog), &r.Progress) //nolint:errcheck // written by this package
		json.Unmarshal([]byte(usage), &r.Usage)   //nolint:errcheck // written by this package
		r.StartedAt, r.FinishedAt = st, max(fin, 0)
		r.Cost = cost.OfRun(r.ReportedCostUSD)
		if live := e.Progress(r.ID); live != nil {
			r.Progress = live
		}
		// Paused lives in memory only: the row stays running, so a run
		// frozen when the app quit is recorded as interrupted like any other.
		if r.State == StateRunning && e.Paused(r.ID) {
			r.State = StatePaused
		}
		if r.Progress == nil {
			r.Progress = []string{}
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// DeleteChatRuns removes a deleted chat's runs.
func (e *Engine) DeleteChatRuns(ctx context.Context, chatID string) error {
	if _, err := e.db.ExecContext(ctx, `DELETE FROM pipeline_runs WHERE chat_id = ?`, chatID); err != nil {
		return fmt.Errorf("deleting the chat's runs: %w", err)
	}
	return nil
}

// DiscardBranch deletes a run's branch (the worktree is already gone).
func (e *Engine) DiscardBranch(ctx context.Context, runID string) (Run, error) {
	r, err := e.Get(ctx, runID)
	if err != nil {
		return r, err
	}
	if r.Branch == "" {
		return r, fmt.Errorf("run %s kept no branch", runID)
	}
	if err := agentcli.DiscardBranch(ctx, e.runner.Env().Environ, r.Repo, r.Branch); err != nil {
		return r, err
	}
	if _, err := e.db.ExecContext(ctx, `UPDATE pipeline_runs SET branch = '' WHERE id = ?`, runID); err != nil {
		return r, fmt.Errorf("recording the discarded branch: %w", err)
	}
	return r, nil
}

// SettleWorktree refuses a run still going and finishes a worktree the run
// left behind (agentcli.RecoverWorktree, as for a run the app was killed
// in), recording its branch and diff.
func (e *Engine) SettleWorktree(ctx context.Context, runID string) (Run, error) {
	if e.liveRun(runID) != nil {
		return Run{}, fmt.Errorf("run %s is still going: wait for it to finish or cancel it first", runID)
	}
	var raw string
	if err := e.db.QueryRowContext(ctx, `SELECT worktree FROM pipeline_runs WHERE id = ?`, runID).Scan(&raw); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return Run{}, fmt.Errorf("no run %s", runID)
		}
		return Run{}, fmt.Errorf("reading run %s: %w", runID, err)
	}
	var wt agentcli.WorktreeInfo
	if raw != "" && json.Unmarshal([]byte(raw), &wt) == nil {
		stat, diff, kept, err := agentcli.RecoverWorktree(ctx, e.runner.Env().Environ, wt, "osFoundry run "+runID)
		if err != nil {
			return Run{}, fmt.Errorf("finishing run %s's worktree: %w", runID, err)
		}
		branch := ""
		if kept {
			branch = wt.Branch
		}
		if _, err := e.db.ExecContext(ctx, `UPDATE pipeline_runs SET worktree = '', repo = ?, branch = ?, diff_stat = ?, diff = ? WHERE id = ?`,
			wt.Repo, branch, stat, diff, runID); err != nil {
			return Run{}, fmt.Errorf("recording run %s's branch: %w", runID, err)
		}
	}
	return e.Get(ctx, runID)
}

// recoverInterrupted closes the runs that were going when the app last
// stopped. Each keeps the answer text and steps it had streamed (written as
// they came), its owner hears it was interrupted (Options.Interrupted), and
// a worktree run's changes are committed to its branch, offered to keep or
// discard like a finished run's.
func (e *Engine) recoverInterrupted(ctx context.Context) error {
	rows, err := e.db.QueryContext(ctx, `SELECT id, chat_id, worktree FROM pipeline_runs WHERE state = ?`, StateRunning)
	if err != nil {
		return fmt.Errorf("reading interrupted runs: %w", err)
	}
	type lost struct{ id, chat, wt string }
	var lostRuns []lost
	for rows.Next() {
		var l lost
		if err := rows.Scan(&l.id, &l.chat, &l.wt); err != nil {
			rows.Close()
			return fmt.Errorf("reading interrupted runs: %w", err)
		}
		lostRuns = append(lostRuns, l)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading interrupted runs: %w", err)
	}
	at := e.o.Now()
	for _, l := range lostRuns {
		errText, branch, stat, diff := ErrInterrupted, "", "", ""
		var wt agentcli.WorktreeInfo
		if l.wt != "" && json.Unmarshal([]byte(l.wt), &wt) == nil {
			st, d, kept, err := agentcli.RecoverWorktree(ctx, e.runner.Env().Environ, wt, "osFoundry run "+l.id+" (interrupted)")
			if kept {
				branch, stat, diff = wt.Branch, st, d
			}
			if err != nil {
				errText += " Its worktree could not be finished: " + err.Error()
			}
		}
		if _, err := e.db.ExecContext(ctx, `UPDATE pipeline_runs SET state = ?, error = ?, branch = ?, diff_stat = ?, diff = ?,
			repo = CASE WHEN ? <> '' THEN ? ELSE repo END, worktree = '', finished_at = ? WHERE id = ?`,
			StateFailed, errText, branch, stat, diff, wt.Repo, wt.Repo, at.UnixMilli(), l.id); err != nil {
			return fmt.Errorf("closing interrupted run %s: %w", l.id, err)
		}
		if e.o.Interrupted != nil {
			if err := e.o.Interrupted(ctx, Outcome{RunID: l.id, ChatID: l.chat, State: StateFailed, Error: errText, At: at}); err != nil {
				return fmt.Errorf("closing interrupted run %s: %w", l.id, err)
			}
		}
	}
	return nil
}

// recordWorktree notes where a worktree run works, before its CLI starts.
func (e *Engine) recordWorktree(runID string, wt agentcli.WorktreeInfo) {
	b, _ := json.Marshal(wt)
	e.db.ExecContext(context.Background(), `UPDATE pipeline_runs SET worktree = ?, repo = ? WHERE id = ?`, string(b), wt.Repo, runID) //nolint:errcheck // a lost note only loses crash recovery
}

// persistPartial appends streamed answer text to the run's row, so a run
// the app is killed in keeps what it had said.
func (e *Engine) persistPartial(runID, text string) {
	e.db.ExecContext(context.Background(), `UPDATE pipeline_runs SET text = text || ? WHERE id = ? AND state = ?`, text, runID, StateRunning) //nolint:errcheck // the final result overwrites it
}

// persistProgress writes the run's steps so far.
func (e *Engine) persistProgress(runID string, progress []string) {
	b, _ := json.Marshal(progress)
	e.db.ExecContext(context.Background(), `UPDATE pipeline_runs SET progress = ? WHERE id = ? AND state = ?`, string(b), runID, StateRunning) //nolint:errcheck // the final result overwrites it
}
