package teamauth

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
)

func checkProject(project string) error {
	if project == "" || len(project) > 200 || strings.ContainsAny(project, "\r\n\t/") {
		return fmt.Errorf("%w: a project id is 1 to 200 characters without slashes", ErrBadInput)
	}
	return nil
}

// SetApprover makes a member an approver of project (approves) or no
// longer one; owners only, and never a viewer.
func (s *Service) SetApprover(ctx context.Context, actorID, workspaceID, project, memberID string, approves bool) error {
	if err := checkProject(project); err != nil {
		return err
	}
	return s.change(ctx, actorID, workspaceID, "", func(tx pgx.Tx) error {
		m, err := memberIn(ctx, tx, workspaceID, memberID)
		if err != nil {
			return err
		}
		if !approves {
			_, err = tx.Exec(ctx, `DELETE FROM teamauth_approvers WHERE workspace_id = $1 AND project = $2 AND member_id = $3`,
				workspaceID, project, memberID)
		} else if m.Role == Viewer {
			return fmt.Errorf("%w: a viewer cannot approve: make them an editor first", ErrBadInput)
		} else {
			_, err = tx.Exec(ctx, `INSERT INTO teamauth_approvers (workspace_id, project, member_id) VALUES ($1, $2, $3)
				ON CONFLICT DO NOTHING`, workspaceID, project, memberID)
		}
		if err != nil {
			return fmt.Errorf("changing the approvers of %s: %w", project, err)
		}
		return nil
	})
}

// Approvers lists the approvers of project; any member may.
func (s *Service) Approvers(ctx context.Context, actorID, workspaceID, project string) ([]Member, error) {
	if err := checkProject(project); err != nil {
		return nil, err
	}
	if err := s.Require(ctx, actorID, workspaceID, Read); err != nil {
		return nil, err
	}
	rows, err := s.db.Query(ctx, `SELECT m.id, coalesce(m.person_id, ''), coalesce(p.email, m.email), coalesce(p.name, ''),
			m.role, m.runner, m.person_id IS NULL, m.created_at
		FROM teamauth_approvers a JOIN teamauth_members m ON m.id = a.member_id
		LEFT JOIN teamauth_people p ON p.id = m.person_id
		WHERE a.workspace_id = $1 AND a.project = $2 ORDER BY m.created_at, m.id`, workspaceID, project)
	if err != nil {
		return nil, fmt.Errorf("listing the approvers of %s: %w", project, err)
	}
	out, err := pgx.CollectRows(rows, scanMember)
	if err != nil {
		return nil, fmt.Errorf("listing the approvers of %s: %w", project, err)
	}
	return out, nil
}
