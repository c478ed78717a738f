package notes

import (
	"context"
	"fmt"
)

// ListRecordChannels returns a workspace's Record channels by name, with
// their project ("" for a channel outside every project). The Connected
// panel offers the ones outside a connection's projects for an explicit
// invite.
func (s *Store) ListRecordChannels(ctx context.Context, workspace string) ([]RecordChannel, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, workspace_id, COALESCE(project_id, ''), name
		FROM record_channels WHERE workspace_id = ? ORDER BY name, id`, workspace)
	if err != nil {
		return nil, fmt.Errorf("listing record channels: %w", lockErr(err))
	}
	defer rows.Close()
	out := []RecordChannel{}
	for rows.Next() {
		var c RecordChannel
		if err := rows.Scan(&c.ID, &c.Workspace, &c.Project, &c.Name); err != nil {
			return nil, fmt.Errorf("listing record channels: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}
