package pgmessages

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/osfoundry/desktop/backend/messages"
)

// The workspaces and projects tables are the notes store's, with the
// desktop's columns (id, name; projects.workspace_id).

func (r placeRows) ProjectWorkspace(ctx context.Context, project string) (string, error) {
	var ws string
	if !stored(project) {
		return "", notFound(pgx.ErrNoRows, "project %q", project)
	}
	err := r.q.QueryRow(ctx, `SELECT workspace_id FROM projects WHERE id = $1`, project).Scan(&ws)
	return ws, notFound(err, "project %s", project)
}

func (r placeRows) ProjectsWithoutDiscussion(ctx context.Context) ([]messages.ProjectRef, error) {
	if r.noProjects {
		return nil, nil
	}
	rows, err := r.q.Query(ctx, `SELECT id, workspace_id FROM projects p WHERE NOT EXISTS
		(SELECT 1 FROM message_channels c WHERE c.project_id = p.id AND c.discussion)`)
	if err != nil {
		return nil, fmt.Errorf("listing projects without a discussion channel: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (messages.ProjectRef, error) {
		var p messages.ProjectRef
		err := row.Scan(&p.ID, &p.Workspace)
		return p, err
	})
	if err != nil {
		return nil, fmt.Errorf("listing projects without a discussion channel: %w", err)
	}
	return out, nil
}

func (r placeRows) Names(ctx context.Context, workspace, project string) (string, string, error) {
	var ws, pr string
	if err := r.q.QueryRow(ctx, `SELECT COALESCE((SELECT name FROM workspaces WHERE id = $1), $1),
		COALESCE((SELECT name FROM projects WHERE id = $2), '')`, workspace, project).Scan(&ws, &pr); err != nil {
		return "", "", fmt.Errorf("reading the names of %s/%s: %w", workspace, project, err)
	}
	return ws, pr, nil
}

func (r placeRows) Places(ctx context.Context) ([]messages.Place, error) {
	rows, err := r.q.Query(ctx, `SELECT id, name, workspace FROM (
		SELECT id, name, '' AS workspace FROM workspaces UNION ALL SELECT id, name, workspace_id FROM projects) p
		ORDER BY workspace COLLATE "C", name COLLATE "C", id COLLATE "C"`)
	if err != nil {
		return nil, fmt.Errorf("listing workspaces and projects: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (messages.Place, error) {
		var p messages.Place
		err := row.Scan(&p.ID, &p.Name, &p.Workspace)
		return p, err
	})
	if err != nil {
		return nil, fmt.Errorf("listing workspaces and projects: %w", err)
	}
	if out == nil {
		out = []messages.Place{}
	}
	return out, nil
}
