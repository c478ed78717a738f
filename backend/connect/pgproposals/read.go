package pgproposals

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/osfoundry/desktop/backend/connect"
)

const proposalCols = `p.id, p.connection_id, COALESCE(c.display_name, ''), p.kind, p.project, p.target, p.title, p.files::text,
	p.details, p.status, p.created_at, p.decided_at, p.decided_by, COALESCE(p.change_set::text, ''), COALESCE(p.outcome::text, '')`

const proposalFrom = ` FROM proposals p LEFT JOIN ` + ConnectionsTable + ` c ON c.id = p.connection_id`

func scanProposal(row pgx.Row) (connect.Proposal, error) {
	var p connect.Proposal
	var files, change, outcome string
	var decided *time.Time
	if err := row.Scan(&p.ID, &p.ConnectionID, &p.Connection, &p.Kind, &p.Project, &p.Target, &p.Title, &files,
		&p.Details, &p.Status, &p.CreatedAt, &decided, &p.DecidedBy, &change, &outcome); err != nil {
		return p, err
	}
	p.CreatedAt = p.CreatedAt.UTC()
	if decided != nil {
		p.DecidedAt = decided.UTC()
	}
	if err := json.Unmarshal([]byte(files), &p.Files); err != nil || p.Files == nil {
		p.Files = []string{}
	}
	p.Changes = []connect.FileChange{}
	if change != "" {
		var cs changeSet
		if err := json.Unmarshal([]byte(change), &cs); err != nil {
			return p, fmt.Errorf("reading the change set of %s: %w", p.ID, err)
		}
		if cs.Changes != nil {
			p.Changes = cs.Changes
		}
		p.Patch, p.Request, p.Import = cs.Patch, cs.Request, cs.Import
	}
	if outcome != "" {
		if err := json.Unmarshal([]byte(outcome), &p.Outcome); err != nil {
			return p, fmt.Errorf("reading the outcome of %s: %w", p.ID, err)
		}
	}
	return p, nil
}

func (r *Rows) Proposal(ctx context.Context, id string) (connect.Proposal, error) {
	if !storable(id) {
		return connect.Proposal{}, fmt.Errorf("proposal %q: %w", id, connect.ErrNotFound)
	}
	p, err := scanProposal(r.pool.QueryRow(ctx, `SELECT `+proposalCols+proposalFrom+` WHERE p.id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return p, fmt.Errorf("proposal %q: %w", id, connect.ErrNotFound)
	}
	if err != nil {
		return p, fmt.Errorf("reading proposal %q: %w", id, err)
	}
	return p, nil
}

func (r *Rows) Proposals(ctx context.Context, status string) ([]connect.Proposal, error) {
	if !storable(status) {
		return []connect.Proposal{}, nil
	}
	rows, err := r.pool.Query(ctx, `SELECT `+proposalCols+proposalFrom+`
		WHERE ($1 = '' OR p.status = $1) ORDER BY p.created_at DESC, p.id COLLATE "C"`, status)
	if err != nil {
		return nil, fmt.Errorf("listing proposals: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (connect.Proposal, error) { return scanProposal(row) })
	if err != nil {
		return nil, fmt.Errorf("listing proposals: %w", err)
	}
	if out == nil {
		out = []connect.Proposal{}
	}
	return out, nil
}

// DecideIfPending is one conditional UPDATE: a second decider blocks on
// the row until the first commits, then PostgreSQL checks the condition
// again on the decided row, finds it no longer pending and changes
// nothing.
func (r *Rows) DecideIfPending(ctx context.Context, id, status, by string, at time.Time, outcome *connect.Outcome) (bool, error) {
	if !storable(id) {
		return false, nil
	}
	var o any // NULL keeps the outcome as it is
	if outcome != nil {
		b, err := json.Marshal(outcome)
		if err != nil {
			return false, fmt.Errorf("encoding the outcome of %s: %w", id, err)
		}
		o = string(b)
	}
	tag, err := r.pool.Exec(ctx, `UPDATE proposals SET status = $2, decided_at = $3, decided_by = $4,
		outcome = COALESCE($5::json, outcome) WHERE id = $1 AND status = 'pending'`, id, status, ms(at), by, o)
	if err != nil {
		return false, fmt.Errorf("deciding proposal %s: %w", id, err)
	}
	return tag.RowsAffected() == 1, nil
}

func (r *Rows) SetOutcome(ctx context.Context, id string, outcome connect.Outcome) error {
	if !storable(id) {
		return nil
	}
	o, err := json.Marshal(outcome)
	if err != nil {
		return fmt.Errorf("encoding the outcome of %s: %w", id, err)
	}
	if _, err := r.pool.Exec(ctx, `UPDATE proposals SET outcome = $2 WHERE id = $1`, id, string(o)); err != nil {
		return fmt.Errorf("recording the outcome of %s: %w", id, err)
	}
	return nil
}
