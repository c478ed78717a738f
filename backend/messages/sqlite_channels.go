package messages

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

const channelCols = `id, workspace_id, project_id, name, discussion, private, owner, created_at`

func scanChannel(r interface{ Scan(...any) error }) (Channel, error) {
	var c Channel
	var disc, priv int
	err := r.Scan(&c.ID, &c.Workspace, &c.Project, &c.Name, &disc, &priv, &c.Owner, &c.CreatedAt)
	c.Discussion, c.Private = disc == 1, priv == 1
	return c, err
}

func (t sqliteChannels) InsertChannel(ctx context.Context, c Channel) error {
	_, err := t.q.ExecContext(ctx, `INSERT INTO message_channels (`+channelCols+`) VALUES (?, ?, ?, ?, 0, ?, ?, ?)`,
		c.ID, c.Workspace, c.Project, c.Name, boolInt(c.Private), c.Owner, c.CreatedAt)
	return err
}

func (t sqliteChannels) InsertDiscussion(ctx context.Context, c Channel) error {
	// The partial unique index on project_id settles two first callers.
	_, err := t.q.ExecContext(ctx, `INSERT INTO message_channels (`+channelCols+`) VALUES (?, ?, ?, ?, 1, 0, '', ?)
		ON CONFLICT (project_id) WHERE discussion = 1 DO NOTHING`, c.ID, c.Workspace, c.Project, c.Name, c.CreatedAt)
	return err
}

func (t sqliteChannels) Discussion(ctx context.Context, project string) (Channel, error) {
	c, err := scanChannel(t.q.QueryRowContext(ctx, `SELECT `+channelCols+` FROM message_channels
		WHERE project_id = ? AND discussion = 1`, project))
	if errors.Is(err, sql.ErrNoRows) {
		return Channel{}, fmt.Errorf("discussion channel of project %s: %w", project, ErrNotFound)
	}
	return c, err
}

func (t sqliteChannels) Channel(ctx context.Context, id string) (Channel, error) {
	c, err := scanChannel(t.q.QueryRowContext(ctx, `SELECT `+channelCols+` FROM message_channels WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Channel{}, fmt.Errorf("channel %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return Channel{}, fmt.Errorf("reading channel %s: %w", id, err)
	}
	return c, nil
}

func (t sqliteChannels) Channels(ctx context.Context, workspace, project string) ([]Channel, error) {
	q := `SELECT ` + channelCols + ` FROM message_channels WHERE workspace_id = ?`
	args := []any{workspace}
	if project != "" {
		q += ` AND project_id = ?`
		args = append(args, project)
	}
	rows, err := t.q.QueryContext(ctx, q+` ORDER BY discussion DESC, name, id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Channel{}
	for rows.Next() {
		c, err := scanChannel(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

func (t sqliteChannels) Workspaces(ctx context.Context) ([]string, error) {
	return strings1(ctx, t.q, `SELECT DISTINCT workspace_id FROM message_channels ORDER BY workspace_id`)
}

// strings1 reads a one-column query.
func strings1(ctx context.Context, q querier, query string, args ...any) ([]string, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

func (t sqlitePlaces) ProjectWorkspace(ctx context.Context, project string) (string, error) {
	var ws string
	err := t.q.QueryRowContext(ctx, `SELECT workspace_id FROM projects WHERE id = ?`, project).Scan(&ws)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("project %s: %w", project, ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("reading project %s: %w", project, err)
	}
	return ws, nil
}

func (t sqlitePlaces) ProjectsWithoutDiscussion(ctx context.Context) ([]ProjectRef, error) {
	if t.noProjects {
		return nil, nil
	}
	rows, err := t.q.QueryContext(ctx, `SELECT id, workspace_id FROM projects p WHERE NOT EXISTS
		(SELECT 1 FROM message_channels c WHERE c.project_id = p.id AND c.discussion = 1)`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ProjectRef
	for rows.Next() {
		var p ProjectRef
		if err := rows.Scan(&p.ID, &p.Workspace); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

func (t sqlitePlaces) Names(ctx context.Context, workspace, project string) (string, string, error) {
	var ws, pr string
	err := t.q.QueryRowContext(ctx, `SELECT COALESCE((SELECT name FROM workspaces WHERE id = ?), ?),
		COALESCE((SELECT name FROM projects WHERE id = ?), '')`, workspace, workspace, project).Scan(&ws, &pr)
	return ws, pr, err
}

func (t sqlitePlaces) Places(ctx context.Context) ([]Place, error) {
	rows, err := t.q.QueryContext(ctx, `SELECT id, name, '' FROM workspaces
		UNION ALL SELECT id, name, workspace_id FROM projects ORDER BY 3, 2, 1`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Place{}
	for rows.Next() {
		var p Place
		if err := rows.Scan(&p.ID, &p.Name, &p.Workspace); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
