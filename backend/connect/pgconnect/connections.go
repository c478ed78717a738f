package pgconnect

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/osfoundry/desktop/backend/connect"
)

func (s *Store) InsertConnection(ctx context.Context, c connect.ConnectionRow) error {
	if _, err := s.pool.Exec(ctx, `INSERT INTO connect_connections (id, display_name, assistant, status, workspace, approver, client_id, scopes, created_at, connected_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, c.ID, clean(c.DisplayName), c.Assistant, c.Status, c.Workspace, c.Approver,
		c.ClientID, c.Scopes, ms(c.CreatedAt), msOrNull(c.ConnectedAt)); err != nil {
		return fmt.Errorf("adding connection: %w", err)
	}
	return nil
}

func (s *Store) Connection(ctx context.Context, id string) (connect.Connection, error) {
	var c connect.Connection
	if !storable(id) {
		return c, missing("connection")
	}
	var scopes string
	var connected *time.Time
	err := s.pool.QueryRow(ctx, `SELECT id, display_name, assistant, status, workspace, approver, scopes, created_at, connected_at
		FROM connect_connections WHERE id = $1`, id).
		Scan(&c.ID, &c.DisplayName, &c.Assistant, &c.Status, &c.Workspace, &c.Approver, &scopes, &c.CreatedAt, &connected)
	if err != nil {
		return c, notFound(err, "connection "+id)
	}
	c.Scopes = strings.Fields(scopes)
	c.CreatedAt, c.ConnectedAt = c.CreatedAt.UTC(), utc(connected)
	if c.Projects, err = s.strings(ctx, `SELECT project FROM connect_projects WHERE connection_id = $1 ORDER BY added_at, project COLLATE "C"`, id); err != nil {
		return c, err
	}
	if c.Channels, err = s.strings(ctx, `SELECT channel FROM connect_channel_invites WHERE connection_id = $1 ORDER BY added_at, channel COLLATE "C"`, id); err != nil {
		return c, err
	}
	return c, nil
}

func (s *Store) ConnectionIDs(ctx context.Context) ([]string, error) {
	return s.strings(ctx, `SELECT id FROM connect_connections ORDER BY created_at DESC, id COLLATE "C"`)
}

func (s *Store) Offered(ctx context.Context, user string) ([]connect.ConnectionRow, error) {
	if !storable(user) {
		return nil, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT id, display_name, assistant, status FROM connect_connections
		WHERE status = 'pending' OR (status = 'connected' AND approver = $1) ORDER BY status COLLATE "C" DESC, created_at DESC`, user)
	if err != nil {
		return nil, fmt.Errorf("listing connections: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (connect.ConnectionRow, error) {
		var c connect.ConnectionRow
		return c, r.Scan(&c.ID, &c.DisplayName, &c.Assistant, &c.Status)
	})
	if err != nil {
		return nil, fmt.Errorf("listing connections: %w", err)
	}
	return out, nil
}

func (s *Store) Carried(ctx context.Context, user string) ([]connect.CarriedRow, error) {
	if !storable(user) {
		return nil, nil
	}
	const offered = `SELECT id FROM connect_connections WHERE status = 'pending' OR (status = 'connected' AND approver = $1)`
	rows, err := s.pool.Query(ctx, `SELECT kind, connection_id, value, at FROM (
		SELECT 'project' AS kind, connection_id, project AS value, added_at AS at FROM connect_projects WHERE connection_id IN (`+offered+`)
		UNION ALL SELECT 'channel', connection_id, channel, NULL FROM connect_channel_invites WHERE connection_id IN (`+offered+`)
		UNION ALL SELECT 'tool', connection_id, tool, NULL FROM connect_disabled_tools WHERE connection_id IN (`+offered+`)
		) held ORDER BY at NULLS FIRST, value COLLATE "C"`, user)
	if err != nil {
		return nil, fmt.Errorf("reading what connections carry: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (connect.CarriedRow, error) {
		var c connect.CarriedRow
		var at *time.Time
		return c, r.Scan(&c.Kind, &c.ConnectionID, &c.Value, &at)
	})
	if err != nil {
		return nil, fmt.Errorf("reading what connections carry: %w", err)
	}
	return out, nil
}

// TakeOver burns the connection's codes before it revokes its tokens: a
// redemption under way holds its code's lock, so the burn waits for it and
// the revocation that follows sees the tokens it issued.
func (s *Store) TakeOver(ctx context.Context, t connect.ConnectionRow) (bool, error) {
	if !storable(t.ID) {
		return false, nil
	}
	took := false
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.ReadCommitted}, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE connect_connections SET status = 'connected', display_name = $2, workspace = $3, approver = $4, client_id = $5, scopes = $6, connected_at = $7
			WHERE id = $1 AND (status = 'pending' OR (status = 'connected' AND approver = $4 AND workspace = $3))`,
			t.ID, clean(t.DisplayName), t.Workspace, t.Approver, t.ClientID, t.Scopes, ms(t.ConnectedAt))
		if err != nil {
			return fmt.Errorf("connecting: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return nil
		}
		if _, err := tx.Exec(ctx, `UPDATE connect_codes SET used = true WHERE connection_id = $1`, t.ID); err != nil {
			return fmt.Errorf("signing out the connection's previous assistant: %w", err)
		}
		if _, err := tx.Exec(ctx, `UPDATE connect_tokens SET revoked = true WHERE connection_id = $1`, t.ID); err != nil {
			return fmt.Errorf("signing out the connection's previous assistant: %w", err)
		}
		took = true
		return nil
	})
	return took, err
}

func (s *Store) Revoke(ctx context.Context, id string, at time.Time) (bool, error) {
	if !storable(id) {
		return false, nil
	}
	return s.changed(ctx, "revoking connection", `UPDATE connect_connections SET status = 'revoked', revoked_at = $2 WHERE id = $1`, id, ms(at))
}

func (s *Store) AddProject(ctx context.Context, connID, project string, at time.Time) error {
	if !storable(connID, project) {
		return fmt.Errorf("adding project: %w: the project id holds a character that cannot be stored", connect.ErrBadInput)
	}
	if _, err := s.pool.Exec(ctx, `INSERT INTO connect_projects (connection_id, project, added_at) VALUES ($1, $2, $3)
		ON CONFLICT (connection_id, project) DO NOTHING`, connID, project, ms(at)); err != nil {
		return fmt.Errorf("adding project: %w", err)
	}
	return nil
}

func (s *Store) RemoveProject(ctx context.Context, connID, project string) (bool, error) {
	if !storable(connID, project) {
		return false, nil
	}
	return s.changed(ctx, "removing project", `DELETE FROM connect_projects WHERE connection_id = $1 AND project = $2`, connID, project)
}

func (s *Store) InviteChannel(ctx context.Context, connID, channel, by string, at time.Time) error {
	if !storable(connID, channel, by) {
		return fmt.Errorf("inviting to channel: %w: the channel id holds a character that cannot be stored", connect.ErrBadInput)
	}
	if _, err := s.pool.Exec(ctx, `INSERT INTO connect_channel_invites (connection_id, channel, invited_by, added_at)
		VALUES ($1, $2, $3, $4) ON CONFLICT (connection_id, channel) DO NOTHING`, connID, channel, by, ms(at)); err != nil {
		return fmt.Errorf("inviting to channel: %w", err)
	}
	return nil
}

func (s *Store) RemoveChannel(ctx context.Context, connID, channel string) (bool, error) {
	if !storable(connID, channel) {
		return false, nil
	}
	return s.changed(ctx, "removing channel invite", `DELETE FROM connect_channel_invites WHERE connection_id = $1 AND channel = $2`, connID, channel)
}

func (s *Store) Invited(ctx context.Context, connID, channel, from string) (bool, error) {
	if !storable(connID, channel, from) {
		return false, nil
	}
	var ok bool
	err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM connect_channel_invites WHERE connection_id = $1 AND channel = $2
		AND ($3 = '' OR invited_by = $3))`, connID, channel, from).Scan(&ok)
	if err != nil {
		return false, fmt.Errorf("reading the invites of channel %s: %w", channel, err)
	}
	return ok, nil
}

func (s *Store) DisabledTools(ctx context.Context, connID string) ([]string, error) {
	if !storable(connID) {
		return []string{}, nil
	}
	return s.strings(ctx, `SELECT tool FROM connect_disabled_tools WHERE connection_id = $1`, connID)
}

func (s *Store) SetDisabledTools(ctx context.Context, connID string, tools []string) error {
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM connect_disabled_tools WHERE connection_id = $1`, connID); err != nil {
			return err
		}
		if len(tools) == 0 {
			return nil
		}
		_, err := tx.Exec(ctx, `INSERT INTO connect_disabled_tools (connection_id, tool) SELECT $1, unnest($2::text[])`, connID, tools)
		return err
	})
	if err != nil {
		return fmt.Errorf("saving tools: %w", err)
	}
	return nil
}

func (s *Store) LinkChat(ctx context.Context, connID, project, label string, at time.Time) error {
	if _, err := s.pool.Exec(ctx, `INSERT INTO connect_chat_links (connection_id, project, label, linked_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (connection_id, project, label) DO UPDATE SET linked_at = excluded.linked_at`, connID, clean(project), clean(label), ms(at)); err != nil {
		return fmt.Errorf("linking chat: %w", err)
	}
	return nil
}
