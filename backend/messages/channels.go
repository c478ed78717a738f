package messages

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

const channelCols = `id, workspace_id, project_id, name, discussion, private, owner, created_at`

func scanChannel(r interface{ Scan(...any) error }) (Channel, error) {
	var c Channel
	var disc, priv int
	err := r.Scan(&c.ID, &c.Workspace, &c.Project, &c.Name, &disc, &priv, &c.Owner, &c.CreatedAt)
	c.Discussion, c.Private = disc == 1, priv == 1
	return c, err
}

// NewChannel describes a channel to create.
type NewChannel struct {
	Workspace string
	Project   string // "" = outside every project
	Name      string
	Private   bool
	Owner     string // required for a private channel
}

// CreateChannel creates a Message channel.
func (s *Store) CreateChannel(ctx context.Context, n NewChannel) (Channel, error) {
	name, err := checkName(n.Name)
	if err != nil {
		return Channel{}, err
	}
	if strings.TrimSpace(n.Workspace) == "" {
		return Channel{}, fmt.Errorf("%w: a workspace id is required", ErrInvalid)
	}
	if n.Private && strings.TrimSpace(n.Owner) == "" {
		return Channel{}, fmt.Errorf("%w: a private channel needs an owner", ErrInvalid)
	}
	c := Channel{ID: newID("ch_"), Workspace: n.Workspace, Project: n.Project, Name: name,
		Private: n.Private, Owner: n.Owner, CreatedAt: s.stamp()}
	_, err = s.db.ExecContext(ctx, `INSERT INTO message_channels (`+channelCols+`) VALUES (?, ?, ?, ?, 0, ?, ?, ?)`,
		c.ID, c.Workspace, c.Project, c.Name, boolInt(c.Private), c.Owner, c.CreatedAt)
	if err != nil {
		return Channel{}, fmt.Errorf("creating channel: %w", err)
	}
	return c, nil
}

// Discussion returns a project's discussion channel, creating it the first
// time (a project has exactly one; the unique index settles a race).
func (s *Store) Discussion(ctx context.Context, workspace, project string) (Channel, error) {
	if strings.TrimSpace(workspace) == "" || strings.TrimSpace(project) == "" {
		return Channel{}, fmt.Errorf("%w: a workspace and a project are required", ErrInvalid)
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO message_channels (`+channelCols+`) VALUES (?, ?, ?, 'discussion', 1, 0, '', ?)
		ON CONFLICT (project_id) WHERE discussion = 1 DO NOTHING`, newID("ch_"), workspace, project, s.stamp())
	if err != nil {
		return Channel{}, fmt.Errorf("creating discussion channel: %w", err)
	}
	c, err := scanChannel(s.db.QueryRowContext(ctx, `SELECT `+channelCols+` FROM message_channels
		WHERE project_id = ? AND discussion = 1`, project))
	if err != nil {
		return Channel{}, fmt.Errorf("reading discussion channel: %w", err)
	}
	if c.Workspace != workspace {
		return Channel{}, fmt.Errorf("%w: project %s is in workspace %s", ErrInvalid, project, c.Workspace)
	}
	return c, nil
}

// Channel returns one channel.
func (s *Store) Channel(ctx context.Context, id string) (Channel, error) {
	c, err := scanChannel(s.db.QueryRowContext(ctx, `SELECT `+channelCols+` FROM message_channels WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Channel{}, fmt.Errorf("channel %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return Channel{}, fmt.Errorf("reading channel %s: %w", id, err)
	}
	return c, nil
}

// ListChannels lists a workspace's channels, discussion channels first,
// then by name. project "" lists every channel of the workspace.
func (s *Store) ListChannels(ctx context.Context, workspace, project string) ([]Channel, error) {
	q := `SELECT ` + channelCols + ` FROM message_channels WHERE workspace_id = ?`
	args := []any{workspace}
	if project != "" {
		q += ` AND project_id = ?`
		args = append(args, project)
	}
	rows, err := s.db.QueryContext(ctx, q+` ORDER BY discussion DESC, name, id`, args...)
	if err != nil {
		return nil, fmt.Errorf("listing channels: %w", err)
	}
	defer rows.Close()
	out := []Channel{}
	for rows.Next() {
		c, err := scanChannel(rows)
		if err != nil {
			return nil, fmt.Errorf("listing channels: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ProjectDiscussion returns a project's discussion channel, creating it if
// the project (in the shared projects table) has none yet.
func (s *Store) ProjectDiscussion(ctx context.Context, project string) (Channel, error) {
	var ws string
	err := s.db.QueryRowContext(ctx, `SELECT workspace_id FROM projects WHERE id = ?`, project).Scan(&ws)
	if errors.Is(err, sql.ErrNoRows) {
		return Channel{}, fmt.Errorf("project %s: %w", project, ErrNotFound)
	}
	if err != nil {
		return Channel{}, fmt.Errorf("reading project %s: %w", project, err)
	}
	return s.Discussion(ctx, ws, project)
}

// EnsureDiscussions gives every project that has none its discussion
// channel (projects created before this store existed, or by another
// process).
func (s *Store) EnsureDiscussions(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, `SELECT id, workspace_id FROM projects p WHERE NOT EXISTS
		(SELECT 1 FROM message_channels c WHERE c.project_id = p.id AND c.discussion = 1)`)
	if err != nil {
		return fmt.Errorf("listing projects without a discussion channel: %w", err)
	}
	type pw struct{ p, w string }
	var todo []pw
	for rows.Next() {
		var x pw
		if err := rows.Scan(&x.p, &x.w); err != nil {
			rows.Close()
			return fmt.Errorf("listing projects: %w", err)
		}
		todo = append(todo, x)
	}
	rows.Close()
	for _, x := range todo {
		if _, err := s.Discussion(ctx, x.w, x.p); err != nil {
			return err
		}
	}
	return nil
}
