package orchestrate

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// EventChanged carries a job's Status after any change: a child started,
// showed a progress line, ended, or the job ended (mirrored in
// frontend/src/lib/events.ts as 'orchestrate:changed').
const EventChanged = "orchestrate:changed"

// Emitter sends one UI event (the app's Wails adapter).
type Emitter interface {
	Emit(event string, payload any)
}

// SetEmitter sends EventChanged to em from now on (nil: none).
func (m *Manager) SetEmitter(em Emitter) {
	m.subMu.Lock()
	m.em = em
	m.subMu.Unlock()
}

// OnChange registers fn to be called after any job changed (the Sessions
// board's Changed).
func (m *Manager) OnChange(fn func()) {
	m.subMu.Lock()
	m.subs = append(m.subs, fn)
	m.subMu.Unlock()
}

func (m *Manager) notify(st Status) {
	m.subMu.Lock()
	em, subs := m.em, slices.Clone(m.subs)
	m.subMu.Unlock()
	if em != nil {
		em.Emit(EventChanged, st)
	}
	for _, f := range subs {
		f()
	}
}

// RunProgress records a child run's newest progress line (the pipeline's
// run events); a run that is no job's child is ignored.
func (m *Manager) RunProgress(runID, line string) {
	line = strings.TrimSpace(line)
	if runID == "" || line == "" {
		return
	}
	m.mu.Lock()
	var j *job
	for _, c := range m.jobs {
		if !c.status().Ended() && c.hasRun(runID) {
			j = c
			break
		}
	}
	m.mu.Unlock()
	if j == nil {
		return
	}
	j.update(func(s *Status) {
		for i := range s.Steps {
			if s.Steps[i].RunID == runID && s.Steps[i].State == StateRunning {
				if r := []rune(line); len(r) > 200 {
					line = string(r[:200]) + "…"
				}
				s.Steps[i].Progress = line
			}
		}
	})
}

// CancelChild stops one child of owner's job (its run's process group is
// killed, or it never starts); its siblings go on.
func (m *Manager) CancelChild(owner, jobID, childID string) (Status, error) {
	j, err := m.lookup(owner, jobID)
	if err != nil {
		return Status{}, err
	}
	st := j.status()
	i := slices.IndexFunc(st.Steps, func(s Step) bool { return s.ID == childID })
	if i < 0 {
		return Status{}, fmt.Errorf("job %s has no child %q: use a child id from its status", jobID, childID)
	}
	switch st.Steps[i].State {
	case StateWaiting, StateRunning:
	default:
		return Status{}, fmt.Errorf("child %s has already ended (%s)", childID, st.Steps[i].State)
	}
	j.mu.Lock()
	j.byUser[i] = true
	cancel := j.children[i]
	j.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	// Wait until the child recorded its end (a waiting child ends when
	// its turn comes; the job ending also ends it).
	ctx, stop := context.WithTimeout(context.Background(), cancelWait)
	defer stop()
	return j.waitFor(ctx, func(s Status) bool {
		return s.Steps[i].State != StateWaiting && s.Steps[i].State != StateRunning
	}), nil
}

// maxListed bounds the finished jobs List reads back from the database.
const maxListed = 50

// List returns owner's jobs, newest first: those in memory and, after a
// restart, the finished ones kept in the database.
func (m *Manager) List(owner string) ([]Status, error) {
	m.mu.Lock()
	var out []Status
	seen := map[string]bool{}
	for _, j := range m.jobs {
		if j.owner == owner {
			st := j.status()
			out = append(out, st)
			seen[st.ID] = true
		}
	}
	db := m.db
	m.mu.Unlock()
	if db != nil {
		stored, err := listStored(db, owner)
		if err != nil {
			return nil, err
		}
		for _, st := range stored {
			if !seen[st.ID] {
				out = append(out, st)
			}
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].StartedAt > out[b].StartedAt })
	if out == nil {
		out = []Status{}
	}
	return out, nil
}

// listStored reads owner's kept jobs ("" = every owner's).
func listStored(db *sql.DB, owner string) ([]Status, error) {
	rows, err := db.Query(`SELECT status FROM orchestrate_jobs WHERE (owner = ? OR ? = '') AND kind <> ? ORDER BY updated_at DESC LIMIT ?`,
		owner, owner, KindRun, maxListed)
	if err != nil {
		return nil, fmt.Errorf("reading the jobs: %w", err)
	}
	defer rows.Close()
	var out []Status
	for rows.Next() {
		var raw string
		var st Status
		if rows.Scan(&raw) == nil && json.Unmarshal([]byte(raw), &st) == nil {
			out = append(out, st)
		}
	}
	return out, rows.Err()
}

// startedBy says who an owner is, for the window.
func startedBy(owner string) string {
	switch {
	case owner == OwnerCLI:
		return "you, with osfoundry run"
	case strings.HasPrefix(owner, "person:"):
		return "you"
	case strings.HasPrefix(owner, "bridge:"):
		return "a Worker run"
	case strings.HasPrefix(owner, "connect:"):
		return "a connected assistant"
	}
	return ""
}

// AllJobs lists every job the app runs or kept, of every starter, newest
// first: the person at the window sees them all (the Sessions board's Team
// and Loop cards, the Orchestration screen).
func (m *Manager) AllJobs() ([]Status, error) {
	m.mu.Lock()
	var out []Status
	seen := map[string]bool{}
	for _, j := range m.jobs {
		st := j.status()
		if st.Kind != KindRun { // one run an assistant asked for: an Agent card
			out = append(out, st)
		}
		seen[st.ID] = true
	}
	m.mu.Unlock()
	if m.db != nil {
		// Earlier sessions' jobs and other processes' (osfoundry run).
		kept, err := m.keptJobs(seen)
		if err != nil {
			return nil, err
		}
		out = append(out, kept...)
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].StartedAt > out[b].StartedAt })
	if out == nil {
		out = []Status{}
	}
	return out, nil
}

// ownerOf finds the starter of a job by its id (any starter's).
func (m *Manager) ownerOf(id string) (string, error) {
	m.mu.Lock()
	j := m.jobs[id]
	m.mu.Unlock()
	if j != nil {
		return j.owner, nil
	}
	if m.db != nil {
		var owner string
		err := m.db.QueryRow(`SELECT owner FROM orchestrate_jobs WHERE id = ?`, id).Scan(&owner)
		if err == nil {
			return owner, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return "", fmt.Errorf("reading job %s: %w", id, err)
		}
	}
	return "", fmt.Errorf("%w %q: it may have been removed; pick a job from the list", ErrNoJob, id)
}

// CancelAny cancels a job whoever started it (the window's person may
// stop anything running on their machine); a job another process runs
// (osfoundry run) is asked to stop there.
func (m *Manager) CancelAny(id string) (Status, error) {
	m.mu.Lock()
	j := m.jobs[id]
	m.mu.Unlock()
	if j != nil {
		return m.Cancel(j.owner, id)
	}
	if m.db != nil {
		st, err := m.cancelElsewhere(id)
		if !errors.Is(err, sql.ErrNoRows) {
			return st, err
		}
	}
	return Status{}, fmt.Errorf("%w %q: it may have been removed; pick a job from the list", ErrNoJob, id)
}

// runsElsewhere reports whether job id is kept but not run by this
// process.
func (m *Manager) runsElsewhere(id string) bool {
	m.mu.Lock()
	j := m.jobs[id]
	m.mu.Unlock()
	if j != nil || m.db == nil {
		return false
	}
	var holder string
	err := m.db.QueryRow(`SELECT holder FROM orchestrate_jobs WHERE id = ? AND state = ?`, id, StateRunning).Scan(&holder)
	return err == nil && holder != m.holder
}

// notifyListeners tells OnChange's listeners that a job changed in
// another process.
func (m *Manager) notifyListeners() {
	m.subMu.Lock()
	subs := slices.Clone(m.subs)
	m.subMu.Unlock()
	for _, f := range subs {
		f()
	}
}
