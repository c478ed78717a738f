package pgmessages

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/osfoundry/desktop/backend/messages"
)

// Names and ids sort byte-wise (COLLATE "C"), as SQLite's BINARY does,
// whatever collation the operator's database has.

const channelCols = `id, workspace_id, project_id, name, discussion, private, owner, created_at`

func scanChannel(r pgx.Row) (messages.Channel, error) {
	var c messages.Channel
	err := r.Scan(&c.ID, &c.Workspace, &c.Project, &c.Name, &c.Discussion, &c.Private, &c.Owner, &c.CreatedAt)
	return c, err
}

func (r channelRows) InsertChannel(ctx context.Context, c messages.Channel) error {
	if _, err := r.q.Exec(ctx, `INSERT INTO message_channels (`+channelCols+`) VALUES ($1, $2, $3, $4, false, $5, $6, $7)`,
		c.ID, c.Workspace, c.Project, c.Name, c.Private, c.Owner, c.CreatedAt); err != nil {
		return fmt.Errorf("storing channel %s: %w", c.ID, err)
	}
	return nil
}

func (r channelRows) InsertDiscussion(ctx context.Context, c messages.Channel) error {
	// The partial unique index on project_id settles two first callers.
	if _, err := r.q.Exec(ctx, `INSERT INTO message_channels (`+channelCols+`) VALUES ($1, $2, $3, $4, true, false, '', $5)
		ON CONFLICT (project_id) WHERE discussion DO NOTHING`, c.ID, c.Workspace, c.Project, c.Name, c.CreatedAt); err != nil {
		return fmt.Errorf("storing the discussion channel of %s: %w", c.Project, err)
	}
	return nil
}

func (r channelRows) Discussion(ctx context.Context, project string) (messages.Channel, error) {
	if !stored(project) {
		return messages.Channel{}, notFound(pgx.ErrNoRows, "discussion channel of project %q", project)
	}
	c, err := scanChannel(r.q.QueryRow(ctx, `SELECT `+channelCols+` FROM message_channels
		WHERE project_id = $1 AND discussion`, project))
	return c, notFound(err, "discussion channel of project %s", project)
}

func (r channelRows) Channel(ctx context.Context, id string) (messages.Channel, error) {
	if !stored(id) {
		return messages.Channel{}, notFound(pgx.ErrNoRows, "channel %q", id)
	}
	c, err := scanChannel(r.q.QueryRow(ctx, `SELECT `+channelCols+` FROM message_channels WHERE id = $1`, id))
	return c, notFound(err, "channel %s", id)
}

func (r channelRows) Channels(ctx context.Context, workspace, project string) ([]messages.Channel, error) {
	if !stored(workspace, project) {
		return []messages.Channel{}, nil
	}
	rows, err := r.q.Query(ctx, `SELECT `+channelCols+` FROM message_channels
		WHERE workspace_id = $1 AND ($2 = '' OR project_id = $2)
		ORDER BY discussion DESC, name COLLATE "C", id COLLATE "C"`, workspace, project)
	if err != nil {
		return nil, fmt.Errorf("listing the channels of %s: %w", workspace, err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (messages.Channel, error) { return scanChannel(row) })
	if err != nil {
		return nil, fmt.Errorf("listing the channels of %s: %w", workspace, err)
	}
	if out == nil {
		out = []messages.Channel{}
	}
	return out, nil
}

func (r channelRows) Workspaces(ctx context.Context) ([]string, error) {
	rows, err := r.q.Query(ctx, `SELECT DISTINCT workspace_id COLLATE "C" FROM message_channels ORDER BY 1`)
	if err != nil {
		return nil, fmt.Errorf("listing workspaces with channels: %w", err)
	}
	ws, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("listing workspaces with channels: %w", err)
	}
	return ws, nil
}
