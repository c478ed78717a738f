package messages

import (
	"context"
	"fmt"
)

// agentsTable keeps the agents added to channels (desktop only: the run
// engine that answers for them is the desktop's).
const agentsTable = `
CREATE TABLE message_channel_agents (
	id         TEXT PRIMARY KEY,
	channel_id TEXT NOT NULL REFERENCES message_channels(id) ON DELETE CASCADE,
	name       TEXT NOT NULL,
	cli        TEXT NOT NULL,
	role       TEXT NOT NULL,
	created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX message_channel_agents_name ON message_channel_agents(channel_id, name COLLATE NOCASE);
`

var _ AgentRows = sqliteBackend{}

func (b sqliteBackend) InsertAgent(ctx context.Context, a ChannelAgent) error {
	_, err := b.db.ExecContext(ctx, `INSERT INTO message_channel_agents (id, channel_id, name, cli, role, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
		a.ID, a.Channel, a.Name, a.CLI, a.Role, a.CreatedAt)
	if err != nil {
		return fmt.Errorf("inserting the agent: %w", err)
	}
	return nil
}

func (b sqliteBackend) ChannelAgents(ctx context.Context, channel string) ([]ChannelAgent, error) {
	rows, err := b.db.QueryContext(ctx, `SELECT id, channel_id, name, cli, role, created_at FROM message_channel_agents WHERE channel_id = ? ORDER BY created_at, id`, channel)
	if err != nil {
		return nil, fmt.Errorf("querying agents: %w", err)
	}
	defer rows.Close()
	out := []ChannelAgent{}
	for rows.Next() {
		var a ChannelAgent
		if err := rows.Scan(&a.ID, &a.Channel, &a.Name, &a.CLI, &a.Role, &a.CreatedAt); err != nil {
			return nil, fmt.Errorf("reading an agent: %w", err)
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

func (b sqliteBackend) DeleteAgent(ctx context.Context, channel, id string) error {
	res, err := b.db.ExecContext(ctx, `DELETE FROM message_channel_agents WHERE channel_id = ? AND id = ?`, channel, id)
	if err != nil {
		return fmt.Errorf("deleting the agent: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}
