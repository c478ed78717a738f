package orchestrate

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/osfoundry/desktop/backend/filelock"
	"github.com/osfoundry/desktop/backend/store"
)

// Jobs of other processes. The window and `osfoundry run` keep their jobs
// in the same database. Each Manager that does holds a lock file while it
// lives and names it on the jobs it runs (holder): a running job whose
// holder's lock can be taken belongs to a process that ended. The window
// shows every process's jobs on the Sessions board, follows their changes
// (watchOthers) and cancels one by asking its holder (cancel_requested),
// which ends it as if cancelled there.

// othersEvery is how often a Manager looks at other processes' jobs and at
// cancel requests for its own: one indexed read, well inside the board's
// 100 ms for a change to show (osfoundry-bench orchestrate).
const othersEvery = 50 * time.Millisecond

// errHolderGone says the process that ran a job has ended.
const errHolderGone = "the process running it (osfoundry run) ended before it finished"

// holdersDir is where the lock files live, beside the database file; ""
// for a database without one.
func holdersDir(ctx context.Context, db *sql.DB) (string, error) {
	dir, err := store.Dir(ctx, db)
	if err != nil || dir == "" {
		return "", err
	}
	return filepath.Join(dir, "orchestrate-holders"), nil
}

// hold takes this Manager's lock file.
func (m *Manager) hold(ctx context.Context) error {
	dir, err := holdersDir(ctx, m.db)
	if err != nil || dir == "" {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("making the job holders folder: %w", err)
	}
	// Lock files of processes that ended without closing (killed) go.
	if stale, err := os.ReadDir(dir); err == nil {
		m.holdDir = dir
		for _, e := range stale {
			m.alive(e.Name())
		}
	}
	name := fmt.Sprintf("%d-%d", os.Getpid(), time.Now().UnixNano())
	f, err := filelock.TryLock(filepath.Join(dir, name))
	if err != nil {
		return fmt.Errorf("holding this process's jobs: %w", err)
	}
	m.holdDir, m.holder, m.holdFile = dir, name, f
	return nil
}

// release gives up the lock file (Close).
func (m *Manager) release() {
	if m.holdFile != nil {
		m.holdFile.Close()
		os.Remove(m.holdFile.Name())
		m.holdFile = nil
	}
}

// alive reports whether holder's process still runs: its lock is held.
// A dead holder's file is removed.
func (m *Manager) alive(holder string) bool {
	if holder == "" || m.holdDir == "" || filepath.Base(holder) != holder {
		return false
	}
	if holder == m.holder {
		return true
	}
	path := filepath.Join(m.holdDir, holder)
	f, err := filelock.TryLock(path)
	if errors.Is(err, filelock.ErrLocked) {
		return true
	}
	if err == nil {
		f.Close()
		os.Remove(path)
	}
	return false
}

// keptJobs reads the kept jobs not in seen (this process's own in memory),
// newest first: earlier sessions' and other processes'. A running job of
// a process that ended is shown failed.
func (m *Manager) keptJobs(seen map[string]bool) ([]Status, error) {
	rows, err := m.db.Query(`SELECT status, holder FROM orchestrate_jobs WHERE kind <> ? ORDER BY updated_at DESC LIMIT ?`, KindRun, maxListed)
	if err != nil {
		return nil, fmt.Errorf("reading the jobs: %w", err)
	}
	defer rows.Close()
	var out []Status
	for rows.Next() {
		var raw, holder string
		var st Status
		if rows.Scan(&raw, &holder) != nil || json.Unmarshal([]byte(raw), &st) != nil || seen[st.ID] {
			continue
		}
		if !st.Ended() && !m.alive(holder) {
			markFailed(&st, errHolderGone)
		}
		out = append(out, st)
	}
	return out, rows.Err()
}

func markFailed(st *Status, why string) {
	st.State, st.Error = StateFailed, why
	for i := range st.Steps {
		if s := &st.Steps[i]; s.State == StateRunning || s.State == StateWaiting {
			s.State = StateFailed
		}
	}
}

// cancelElsewhere asks the process running job id to cancel it and waits
// until it has recorded its end.
func (m *Manager) cancelElsewhere(id string) (Status, error) {
	read := func() (Status, string, error) {
		var raw, holder string
		if err := m.db.QueryRow(`SELECT status, holder FROM orchestrate_jobs WHERE id = ?`, id).Scan(&raw, &holder); err != nil {
			return Status{}, "", fmt.Errorf("reading job %s: %w", id, err)
		}
		var st Status
		if err := json.Unmarshal([]byte(raw), &st); err != nil {
			return Status{}, "", fmt.Errorf("reading job %s: %w", id, err)
		}
		return st, holder, nil
	}
	st, holder, err := read()
	if err != nil || st.Ended() {
		return st, err
	}
	if !m.alive(holder) {
		markFailed(&st, errHolderGone)
		return st, nil
	}
	if _, err := m.db.Exec(`UPDATE orchestrate_jobs SET cancel_requested = 1 WHERE id = ?`, id); err != nil {
		return Status{}, fmt.Errorf("cancelling job %s: %w", id, err)
	}
	// The holder writes a job's end in two steps (its body's verdict, then
	// the cancel and the end time): only the second is the answer.
	deadline := time.Now().Add(cancelWait)
	for time.Now().Before(deadline) {
		time.Sleep(othersEvery / 2)
		if st, holder, err = read(); err != nil || (st.Ended() && st.EndedAt != 0) {
			return st, err
		}
		if !m.alive(holder) {
			markFailed(&st, errHolderGone)
			return st, nil
		}
	}
	if st.Ended() {
		return st, nil
	}
	return st, fmt.Errorf("job %s was asked to stop and is still going after %s: end `osfoundry run` where it runs (Ctrl+C)", id, cancelWait)
}

// othersSig changes whenever another process's jobs change.
func (m *Manager) othersSig() string {
	var n, at int64
	if err := m.db.QueryRow(`SELECT count(*), coalesce(max(updated_at), 0) FROM orchestrate_jobs WHERE holder <> ?`, m.holder).Scan(&n, &at); err != nil {
		return ""
	}
	return fmt.Sprint(n, ":", at)
}

// watchOthers cancels this process's jobs another process asked to cancel,
// and tells the listeners (the Sessions board) when another process's jobs
// changed since last (othersSig when the Manager opened).
func (m *Manager) watchOthers(last string) {
	defer m.wg.Done()
	t := time.NewTicker(othersEvery)
	defer t.Stop()
	for {
		select {
		case <-m.ctx.Done():
			return
		case <-t.C:
		}
		if sig := m.othersSig(); sig != "" && sig != last {
			m.notifyListeners()
			last = sig
		}
		rows, err := m.db.Query(`SELECT id FROM orchestrate_jobs WHERE holder = ? AND cancel_requested = 1 AND state = ?`, m.holder, StateRunning)
		if err != nil {
			continue
		}
		var ids []string
		for rows.Next() {
			var id string
			if rows.Scan(&id) == nil {
				ids = append(ids, id)
			}
		}
		rows.Close()
		for _, id := range ids {
			m.mu.Lock()
			j := m.jobs[id]
			m.mu.Unlock()
			if j != nil {
				j.cancel()
			}
		}
	}
}
