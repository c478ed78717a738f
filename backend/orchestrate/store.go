package orchestrate

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/osfoundry/desktop/backend/store"
)

// Component is the store.Migrate component name of this package's tables.
const Component = "orchestrate"

// Jobs are kept so their starter can read the result after the app
// restarted (an assistant asking about yesterday's graph). The SQL is
// portable: a team server may move to PostgreSQL.
var migrations = []store.Migration{{Version: 1, SQL: `
CREATE TABLE orchestrate_jobs (
	id         TEXT PRIMARY KEY,
	owner      TEXT NOT NULL,
	kind       TEXT NOT NULL,
	state      TEXT NOT NULL,
	status     TEXT NOT NULL,
	updated_at INTEGER NOT NULL
);
CREATE INDEX orchestrate_jobs_owner ON orchestrate_jobs(owner);
CREATE TABLE orchestrate_job_runs (
	run_id TEXT PRIMARY KEY,
	job_id TEXT NOT NULL
);`}, {Version: 2, SQL: `
-- holder: the lock file of the process running the job (others.go);
-- cancel_requested: another process asked that one to cancel it.
ALTER TABLE orchestrate_jobs ADD COLUMN holder TEXT NOT NULL DEFAULT '';
ALTER TABLE orchestrate_jobs ADD COLUMN cancel_requested INTEGER NOT NULL DEFAULT 0;`}}

// Open returns a Manager over roles and rs that keeps its jobs in db, beside those of
// other processes on the same database (others.go). Jobs that were going
// when the process running them ended are recorded as failed.
func Open(ctx context.Context, roles Roles, rs Runs, db *sql.DB) (*Manager, error) {
	if err := store.Migrate(ctx, db, Component, migrations); err != nil {
		return nil, fmt.Errorf("opening the orchestration store: %w", err)
	}
	m := New(roles, rs)
	m.db = db
	if err := m.hold(ctx); err != nil {
		return nil, err
	}
	rows, err := db.QueryContext(ctx, `SELECT status, holder FROM orchestrate_jobs WHERE state = ?`, StateRunning)
	if err != nil {
		m.release()
		return nil, fmt.Errorf("reading unfinished jobs: %w", err)
	}
	var stale []Status
	var holders []string
	for rows.Next() {
		var raw, holder string
		var st Status
		if rows.Scan(&raw, &holder) == nil && json.Unmarshal([]byte(raw), &st) == nil {
			stale, holders = append(stale, st), append(holders, holder)
		}
	}
	rows.Close()
	for i, st := range stale {
		if holders[i] != "" && m.alive(holders[i]) {
			continue // another process runs it now
		}
		why := "the app quit while this job was going"
		if holders[i] != "" {
			why = errHolderGone
		}
		markFailed(&st, why)
		if err := m.save(ctx, "", st); err != nil {
			m.release()
			return nil, err
		}
	}
	if m.holder != "" {
		m.wg.Add(1)
		go m.watchOthers(m.othersSig())
	}
	return m, nil
}

// save writes a job's status (owner "" keeps the stored owner).
func (m *Manager) save(ctx context.Context, owner string, st Status) error {
	if m.db == nil {
		return nil
	}
	raw, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("saving job %s: %w", st.ID, err)
	}
	// One transaction: the job and its run ids are written together.
	tx, err := m.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("saving job %s: %w", st.ID, err)
	}
	defer tx.Rollback()
	now := time.Now().UnixMilli()
	if owner == "" {
		_, err = tx.ExecContext(ctx, `UPDATE orchestrate_jobs SET state = ?, status = ?, updated_at = ? WHERE id = ?`,
			st.State, string(raw), now, st.ID)
	} else {
		_, err = tx.ExecContext(ctx, `INSERT INTO orchestrate_jobs (id, owner, kind, state, status, updated_at, holder) VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET state = excluded.state, status = excluded.status, updated_at = excluded.updated_at, holder = excluded.holder`,
			st.ID, owner, st.Kind, st.State, string(raw), now, m.holder)
	}
	for _, s := range st.Steps {
		if err == nil && s.RunID != "" {
			_, err = tx.ExecContext(ctx, `INSERT INTO orchestrate_job_runs (run_id, job_id) VALUES (?, ?) ON CONFLICT (run_id) DO NOTHING`,
				s.RunID, st.ID)
		}
	}
	if err == nil {
		err = tx.Commit()
	}
	if err != nil {
		return fmt.Errorf("saving job %s: %w", st.ID, err)
	}
	return nil
}

// stored reads owner's finished job by its id or one of its run ids.
func (m *Manager) stored(owner, id string) (*job, error) {
	if m.db == nil {
		return nil, nil
	}
	var raw string
	err := m.db.QueryRow(`SELECT status FROM orchestrate_jobs WHERE owner = ? AND
		(id = ? OR id = (SELECT job_id FROM orchestrate_job_runs WHERE run_id = ?))`, owner, id, id).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading job %s: %w", id, err)
	}
	var st Status
	if err := json.Unmarshal([]byte(raw), &st); err != nil {
		return nil, fmt.Errorf("reading job %s: %w", id, err)
	}
	j := &job{owner: owner, cancel: func() {}, done: closedDone, changed: make(chan struct{}), st: st}
	return j, nil
}

var closedDone = func() chan struct{} { c := make(chan struct{}); close(c); return c }()
