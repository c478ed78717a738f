package connect

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// sqliteProposals is ProposalRows over the connect_proposals table. A
// change set's files (with their text before) or patch, and what approving
// it did, are stored as JSON columns beside the proposal.
type sqliteProposals struct{ db *sql.DB }

var _ ProposalRows = sqliteProposals{}

// SQLiteProposals returns the proposals kept in db, migrated by Open.
func SQLiteProposals(db *sql.DB) ProposalRows { return sqliteProposals{db: db} }

func (r sqliteProposals) InsertPendingIfUnder(ctx context.Context, p Proposal, max int) (bool, error) {
	files, err := json.Marshal(p.Files)
	if err != nil {
		return false, fmt.Errorf("encoding the files of %s: %w", p.ID, err)
	}
	change := ""
	if p.Kind == kindChangeSet || p.Request != nil || p.Import != nil {
		b, err := json.Marshal(storedChange{Changes: p.Changes, Patch: p.Patch, Request: p.Request, Import: p.Import})
		if err != nil {
			return false, fmt.Errorf("encoding the change set of %s: %w", p.ID, err)
		}
		change = string(b)
	}
	res, err := r.db.ExecContext(ctx, `INSERT INTO connect_proposals (id, connection_id, kind, project, target, title, files, details, status, created_at, change_set)
		SELECT ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?
		WHERE (SELECT COUNT(*) FROM connect_proposals WHERE connection_id = ? AND status = 'pending') < ?`,
		p.ID, p.ConnectionID, p.Kind, p.Project, p.Target, p.Title, string(files), p.Details, p.CreatedAt.UnixMilli(), change,
		p.ConnectionID, max)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

const proposalCols = `p.id, p.connection_id, COALESCE(c.display_name, ''), p.kind, p.project, p.target, p.title, p.files, p.details, p.status, p.created_at, p.decided_at, p.decided_by, p.change_set, p.outcome`

const proposalFrom = ` FROM connect_proposals p LEFT JOIN connect_connections c ON c.id = p.connection_id`

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
		p.Patch, p.Request, p.Import = sc.Patch, sc.Request, sc.Import
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

func (r sqliteProposals) Proposal(ctx context.Context, id string) (Proposal, error) {
	p, err := scanProposal(r.db.QueryRowContext(ctx, `SELECT `+proposalCols+proposalFrom+` WHERE p.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return p, fmt.Errorf("proposal %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return p, fmt.Errorf("reading proposal: %w", err)
	}
	return p, nil
}

func (r sqliteProposals) Proposals(ctx context.Context, status string) ([]Proposal, error) {
	rows, err := r.db.QueryContext(ctx, `SELECT `+proposalCols+proposalFrom+`
		WHERE (? = '' OR p.status = ?) ORDER BY p.created_at DESC, p.id`, status, status)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Proposal{}
	for rows.Next() {
		p, err := scanProposal(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

func (r sqliteProposals) DecideIfPending(ctx context.Context, id, status, by string, at time.Time, outcome *Outcome) (bool, error) {
	q := `UPDATE connect_proposals SET status = ?, decided_at = ?, decided_by = ?`
	args := []any{status, at.UnixMilli(), by}
	if outcome != nil {
		o, err := json.Marshal(outcome)
		if err != nil {
			return false, fmt.Errorf("encoding the outcome of %s: %w", id, err)
		}
		q += `, outcome = ?`
		args = append(args, string(o))
	}
	res, err := r.db.ExecContext(ctx, q+` WHERE id = ? AND status = 'pending'`, append(args, id)...)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func (r sqliteProposals) SetOutcome(ctx context.Context, id string, outcome Outcome) error {
	o, err := json.Marshal(outcome)
	if err != nil {
		return fmt.Errorf("encoding the outcome of %s: %w", id, err)
	}
	_, err = r.db.ExecContext(ctx, `UPDATE connect_proposals SET outcome = ? WHERE id = ?`, string(o), id)
	return err
}
