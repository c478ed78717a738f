package connect

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

const activityInsert = `INSERT INTO connect_activity (connection_id, tool, decision, detail, at) VALUES (?, ?, ?, ?, ?)`

// Activity is one line of "Recent activity": tool, access decision, time.
type Activity struct {
	ConnectionID string    `json:"connectionId"`
	Tool         string    `json:"tool"`
	Decision     string    `json:"decision"`
	Detail       string    `json:"detail"`
	At           time.Time `json:"at"`
}

func (s *Service) logActivity(ctx context.Context, connID, tool, decision, detail string) error {
	if _, err := s.q.activity.ExecContext(ctx, connID, tool, decision, detail, s.ms()); err != nil {
		return fmt.Errorf("recording activity: %w", err)
	}
	return nil
}

// RecentActivity lists the newest calls of a connection ("" for all), at
// most limit (default 50).
func (s *Service) RecentActivity(ctx context.Context, connID string, limit int) ([]Activity, error) {
	if limit <= 0 {
		limit = 50
	}
	rows, err := s.db.QueryContext(ctx, `SELECT connection_id, tool, decision, detail, at FROM connect_activity
		WHERE (? = '' OR connection_id = ?) ORDER BY id DESC LIMIT ?`, connID, connID, limit)
	if err != nil {
		return nil, fmt.Errorf("reading activity: %w", err)
	}
	defer rows.Close()
	out := []Activity{}
	for rows.Next() {
		var a Activity
		var at int64
		if err := rows.Scan(&a.ConnectionID, &a.Tool, &a.Decision, &a.Detail, &at); err != nil {
			return nil, fmt.Errorf("reading activity: %w", err)
		}
		a.At = time.UnixMilli(at).UTC()
		out = append(out, a)
	}
	return out, rows.Err()
}

// Proposal is a write that waits under "Needs your approval".
type Proposal struct {
	ID           string    `json:"id"`
	ConnectionID string    `json:"connectionId"`
	Connection   string    `json:"connection"` // display name
	Kind         string    `json:"kind"`
	Project      string    `json:"project"`
	Target       string    `json:"target"`
	Title        string    `json:"title"`
	Files        []string  `json:"files"`
	Details      string    `json:"details"`
	Status       string    `json:"status"`
	CreatedAt    time.Time `json:"createdAt"`
	DecidedAt    time.Time `json:"decidedAt"`
	DecidedBy    string    `json:"decidedBy"`
	// A change set (kind change_set): its files or patch, then what
	// approving it did (Branch, Commit, Diff) or why it could not (Problem).
	Changes []FileChange `json:"changes"`
	Patch   string       `json:"patch"`
	Outcome
}

func (s *Service) addProposal(ctx context.Context, p Proposal) (Proposal, error) {
	p.ID = newID("prop")
	p.Status = "pending"
	p.CreatedAt = time.UnixMilli(s.ms()).UTC()
	if p.Files == nil {
		p.Files = []string{}
	}
	if p.Changes == nil {
		p.Changes = []FileChange{}
	}
	files, _ := json.Marshal(p.Files)
	change := ""
	if p.Kind == kindChangeSet {
		b, _ := json.Marshal(storedChange{Changes: p.Changes, Patch: p.Patch})
		change = string(b)
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO connect_proposals (id, connection_id, kind, project, target, title, files, details, status, created_at, change_set)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`, p.ID, p.ConnectionID, p.Kind, p.Project, p.Target, p.Title, string(files), p.Details, p.CreatedAt.UnixMilli(), change)
	if err != nil {
		return Proposal{}, fmt.Errorf("queueing proposal: %w", err)
	}
	return p, nil
}

const proposalCols = `p.id, p.connection_id, COALESCE(c.display_name, ''), p.kind, p.project, p.target, p.title, p.files, p.details, p.status, p.created_at, p.decided_at, p.decided_by, p.change_set, p.outcome`

func scanProposal(sc interface{ Scan(...any) error }) (Proposal, error) {
	var p Proposal
	var files, change, outcome string
	var created, decided int64
	if err := sc.Scan(&p.ID, &p.ConnectionID, &p.Connection, &p.Kind, &p.Project, &p.Target, &p.Title, &files, &p.Details, &p.Status, &created, &decided, &p.DecidedBy, &change, &outcome); err != nil {
		return p, err
	}
	p.Changes = []FileChange{}
	if change != "" {
		var sc storedChange
		if err := json.Unmarshal([]byte(change), &sc); err != nil {
			return p, fmt.Errorf("reading change set of %s: %w", p.ID, err)
		}
		if sc.Changes != nil {
			p.Changes = sc.Changes
		}
		p.Patch = sc.Patch
	}
	if outcome != "" {
		if err := json.Unmarshal([]byte(outcome), &p.Outcome); err != nil {
			return p, fmt.Errorf("reading outcome of %s: %w", p.ID, err)
		}
	}
	if err := json.Unmarshal([]byte(files), &p.Files); err != nil || p.Files == nil {
		p.Files = []string{}
	}
	p.CreatedAt = time.UnixMilli(created).UTC()
	if decided > 0 {
		p.DecidedAt = time.UnixMilli(decided).UTC()
	}
	return p, nil
}

// Proposals lists proposals with the given status ("" for all), newest first.
func (s *Service) Proposals(ctx context.Context, status string) ([]Proposal, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+proposalCols+` FROM connect_proposals p
		LEFT JOIN connect_connections c ON c.id = p.connection_id
		WHERE (? = '' OR p.status = ?) ORDER BY p.created_at DESC, p.id`, status, status)
	if err != nil {
		return nil, fmt.Errorf("listing proposals: %w", err)
	}
	defer rows.Close()
	out := []Proposal{}
	for rows.Next() {
		p, err := scanProposal(rows)
		if err != nil {
			return nil, fmt.Errorf("listing proposals: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// Proposal returns one proposal.
func (s *Service) Proposal(ctx context.Context, id string) (Proposal, error) {
	p, err := scanProposal(s.db.QueryRowContext(ctx, `SELECT `+proposalCols+` FROM connect_proposals p
		LEFT JOIN connect_connections c ON c.id = p.connection_id WHERE p.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return p, fmt.Errorf("proposal %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return p, fmt.Errorf("reading proposal: %w", err)
	}
	return p, nil
}

// Decide approves or declines a pending proposal on behalf of user.
// Approving a change set applies it first (see applyChangeSet); one that
// cannot apply stays pending with its Problem.
func (s *Service) Decide(ctx context.Context, id, user string, approve bool) (Proposal, error) {
	if approve {
		p, err := s.Proposal(ctx, id)
		if err != nil {
			return Proposal{}, err
		}
		if p.Kind == kindChangeSet {
			return s.applyChangeSet(ctx, id, user)
		}
	}
	status := "declined"
	if approve {
		status = "approved"
	}
	res, err := s.db.ExecContext(ctx, `UPDATE connect_proposals SET status = ?, decided_at = ?, decided_by = ?
		WHERE id = ? AND status = 'pending'`, status, s.ms(), user, id)
	if err != nil {
		return Proposal{}, fmt.Errorf("deciding proposal: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		if _, err := s.Proposal(ctx, id); err != nil {
			return Proposal{}, err
		}
		return Proposal{}, fmt.Errorf("deciding proposal %q: %w", id, ErrNotPending)
	}
	return s.Proposal(ctx, id)
}
