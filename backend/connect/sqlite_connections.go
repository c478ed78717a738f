package connect

import (
	"context"
	"fmt"
	"time"
)

func (s *SQLiteStore) InsertConnection(ctx context.Context, c ConnectionRow) error {
	var connected int64
	if !c.ConnectedAt.IsZero() {
		connected = ms(c.ConnectedAt)
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO connect_connections (id, display_name, assistant, status, workspace, approver, client_id, scopes, created_at, connected_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, c.ID, c.DisplayName, c.Assistant, c.Status, c.Workspace, c.Approver, c.ClientID, c.Scopes,
		ms(c.CreatedAt), connected); err != nil {
		return fmt.Errorf("adding connection: %w", err)
	}
	return nil
}

func (s *SQLiteStore) Connection(ctx context.Context, id string) (Connection, error) {
	var c Connection
	var scopes string
	var created, connected int64
	err := s.db.QueryRowContext(ctx, `SELECT id, display_name, assistant, status, workspace, approver, scopes, created_at, connected_at
		FROM connect_connections WHERE id = ?`, id).
		Scan(&c.ID, &c.DisplayName, &c.Assistant, &c.Status, &c.Workspace, &c.Approver, &scopes, &created, &connected)
	if err != nil {
		return c, notFound(err, "connection "+id)
	}
	c.Scopes = splitScopes(scopes)
	c.CreatedAt = fromMS(created)
	if connected > 0 {
		c.ConnectedAt = fromMS(connected)
	}
	if c.Projects, err = s.strings(ctx, `SELECT project FROM connect_projects WHERE connection_id = ? ORDER BY added_at, project`, id); err != nil {
		return c, err
	}
	if c.Channels, err = s.strings(ctx, `SELECT channel FROM connect_channel_invites WHERE connection_id = ? ORDER BY added_at, channel`, id); err != nil {
		return c, err
	}
	return c, nil
}

func (s *SQLiteStore) ConnectionIDs(ctx context.Context) ([]string, error) {
	return s.strings(ctx, `SELECT id FROM connect_connections ORDER BY created_at DESC, id`)
}

func (s *SQLiteStore) Offered(ctx context.Context, user string) ([]ConnectionRow, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, display_name, assistant, status FROM connect_connections
		WHERE status = 'pending' OR (status = 'connected' AND approver = ?) ORDER BY status DESC, created_at DESC`, user)
	if err != nil {
		return nil, fmt.Errorf("listing connections: %w", err)
	}
	defer rows.Close()
	var out []ConnectionRow
	for rows.Next() {
		var r ConnectionRow
		if err := rows.Scan(&r.ID, &r.DisplayName, &r.Assistant, &r.Status); err != nil {
			return nil, fmt.Errorf("listing connections: %w", err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("listing connections: %w", err)
	}
	return out, nil
}

func (s *SQLiteStore) Carried(ctx context.Context, user string) ([]CarriedRow, error) {
	const offered = `SELECT id FROM connect_connections WHERE status = 'pending' OR (status = 'connected' AND approver = ?)`
	rows, err := s.db.QueryContext(ctx, `
		SELECT 'project', connection_id, project, added_at FROM connect_projects WHERE connection_id IN (`+offered+`)
		UNION ALL SELECT 'channel', connection_id, channel, 0 FROM connect_channel_invites WHERE connection_id IN (`+offered+`)
		UNION ALL SELECT 'tool', connection_id, tool, 0 FROM connect_disabled_tools WHERE connection_id IN (`+offered+`)
		ORDER BY 4, 3`, user, user, user)
	if err != nil {
		return nil, fmt.Errorf("reading what connections carry: %w", err)
	}
	defer rows.Close()
	var out []CarriedRow
	for rows.Next() {
		var r CarriedRow
		var at int64
		if err := rows.Scan(&r.Kind, &r.ConnectionID, &r.Value, &at); err != nil {
			return nil, fmt.Errorf("reading what connections carry: %w", err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading what connections carry: %w", err)
	}
	return out, nil
}

func (s *SQLiteStore) TakeOver(ctx context.Context, t ConnectionRow) (bool, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("connecting: %w", err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE connect_connections SET status = 'connected', display_name = ?, workspace = ?, approver = ?, client_id = ?, scopes = ?, connected_at = ?
		WHERE id = ? AND (status = 'pending' OR (status = 'connected' AND approver = ? AND workspace = ?))`,
		t.DisplayName, t.Workspace, t.Approver, t.ClientID, t.Scopes, ms(t.ConnectedAt), t.ID, t.Approver, t.Workspace)
	if err != nil {
		return false, fmt.Errorf("connecting: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil
	}
	if _, err := tx.ExecContext(ctx, `UPDATE connect_tokens SET revoked = 1 WHERE connection_id = ?`, t.ID); err != nil {
		return false, fmt.Errorf("signing out the connection's previous assistant: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE connect_codes SET used = 1 WHERE connection_id = ?`, t.ID); err != nil {
		return false, fmt.Errorf("signing out the connection's previous assistant: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("connecting: %w", err)
	}
	return true, nil
}

func (s *SQLiteStore) Revoke(ctx context.Context, id string, at time.Time) (bool, error) {
	return s.execCount(ctx, "revoking connection", `UPDATE connect_connections SET status = 'revoked', revoked_at = ? WHERE id = ?`, ms(at), id)
}

func (s *SQLiteStore) AddProject(ctx context.Context, connID, project string, at time.Time) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO connect_projects (connection_id, project, added_at) VALUES (?, ?, ?)
		ON CONFLICT (connection_id, project) DO NOTHING`, connID, project, ms(at))
	if err != nil {
		return fmt.Errorf("adding project: %w", err)
	}
	return nil
}

func (s *SQLiteStore) RemoveProject(ctx context.Context, connID, project string) (bool, error) {
	return s.execCount(ctx, "removing project", `DELETE FROM connect_projects WHERE connection_id = ? AND project = ?`, connID, project)
}

func (s *SQLiteStore) InviteChannel(ctx context.Context, connID, channel, by string, at time.Time) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO connect_channel_invites (connection_id, channel, invited_by, added_at)
		VALUES (?, ?, ?, ?) ON CONFLICT (connection_id, channel) DO NOTHING`, connID, channel, by, ms(at))
	if err != nil {
		return fmt.Errorf("inviting to channel: %w", err)
	}
	return nil
}

func (s *SQLiteStore) RemoveChannel(ctx context.Context, connID, channel string) (bool, error) {
	return s.execCount(ctx, "removing channel invite", `DELETE FROM connect_channel_invites WHERE connection_id = ? AND channel = ?`, connID, channel)
}

func (s *SQLiteStore) Invited(ctx context.Context, connID, channel, from string) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM connect_channel_invites WHERE connection_id = ? AND channel = ?
		AND (? = '' OR invited_by = ?)`, connID, channel, from, from).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("reading the invites of channel %s: %w", channel, err)
	}
	return n > 0, nil
}

func (s *SQLiteStore) DisabledTools(ctx context.Context, connID string) ([]string, error) {
	return s.strings(ctx, `SELECT tool FROM connect_disabled_tools WHERE connection_id = ?`, connID)
}

func (s *SQLiteStore) SetDisabledTools(ctx context.Context, connID string, tools []string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("saving tools: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM connect_disabled_tools WHERE connection_id = ?`, connID); err != nil {
		return fmt.Errorf("saving tools: %w", err)
	}
	for _, name := range tools {
		if _, err := tx.ExecContext(ctx, `INSERT INTO connect_disabled_tools (connection_id, tool) VALUES (?, ?)`, connID, name); err != nil {
			return fmt.Errorf("saving tools: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("saving tools: %w", err)
	}
	return nil
}

func (s *SQLiteStore) LinkChat(ctx context.Context, connID, project, label string, at time.Time) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO connect_chat_links (connection_id, project, label, linked_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (connection_id, project, label) DO UPDATE SET linked_at = excluded.linked_at`, connID, project, label, ms(at))
	if err != nil {
		return fmt.Errorf("linking chat: %w", err)
	}
	return nil
}
