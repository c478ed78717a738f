package connect

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Assistants the panel offers in "Connect in three steps".
var Assistants = []string{"Claude", "ChatGPT", "Other MCP client"}

// Connection statuses.
const (
	StatusPending   = "pending"
	StatusConnected = "connected"
	StatusRevoked   = "revoked"
)

// Panel texts (SPEC §6, exact).
const (
	TextPending   = "Setup pending. This assistant cannot read or change anything yet."
	TextConnected = "Connected."
	TextRevoked   = "Revoked."
	TextToolsOn   = "All supported tools are on by default."
)

// Connection is one assistant's access, as the Connected panel shows it.
type Connection struct {
	ID          string    `json:"id"`
	DisplayName string    `json:"displayName"`
	Assistant   string    `json:"assistant"`
	Status      string    `json:"status"`
	StatusText  string    `json:"statusText"`
	Workspace   string    `json:"workspace"`
	Approver    string    `json:"approver"`
	Scopes      []string  `json:"scopes"`
	Projects    []string  `json:"projects"`
	Channels    []string  `json:"channels"`
	CreatedAt   time.Time `json:"createdAt"`
	ConnectedAt time.Time `json:"connectedAt"`
}

func statusText(status string) string {
	switch status {
	case StatusConnected:
		return TextConnected
	case StatusRevoked:
		return TextRevoked
	}
	return TextPending
}

// CreateConnection adds a pending connection (the panel's "Add assistant").
// It can read or change nothing until someone signs in through the consent
// page and picks it ("Use pending: <name>").
func (s *Service) CreateConnection(ctx context.Context, assistant, displayName string) (Connection, error) {
	displayName = strings.TrimSpace(displayName)
	if !slices.Contains(Assistants, assistant) {
		return Connection{}, fmt.Errorf("adding assistant: %w: assistant must be one of %s", ErrBadInput, strings.Join(Assistants, ", "))
	}
	if displayName == "" {
		return Connection{}, fmt.Errorf("adding assistant: %w: a display name is required", ErrBadInput)
	}
	id := newID("conn")
	if _, err := s.db.ExecContext(ctx, `INSERT INTO connect_connections (id, display_name, assistant, status, created_at)
		VALUES (?, ?, ?, 'pending', ?)`, id, displayName, assistant, s.ms()); err != nil {
		return Connection{}, fmt.Errorf("adding assistant: %w", err)
	}
	return s.Connection(ctx, id)
}

const connCols = `id, display_name, assistant, status, workspace, approver, scopes, created_at, connected_at`

func scanConn(sc interface{ Scan(...any) error }) (Connection, error) {
	var c Connection
	var scopes string
	var created, connected int64
	if err := sc.Scan(&c.ID, &c.DisplayName, &c.Assistant, &c.Status, &c.Workspace, &c.Approver, &scopes, &created, &connected); err != nil {
		return c, err
	}
	c.Scopes = splitScopes(scopes)
	c.StatusText = statusText(c.Status)
	c.CreatedAt = time.UnixMilli(created).UTC()
	if connected > 0 {
		c.ConnectedAt = time.UnixMilli(connected).UTC()
	}
	c.Projects, c.Channels = []string{}, []string{}
	return c, nil
}

// Connection returns one connection with its projects and channel invites.
func (s *Service) Connection(ctx context.Context, id string) (Connection, error) {
	c, err := scanConn(s.db.QueryRowContext(ctx, `SELECT `+connCols+` FROM connect_connections WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return c, fmt.Errorf("connection %q: %w (list them with `osfoundry connections list`)", id, ErrNotFound)
	}
	if err != nil {
		return c, fmt.Errorf("reading connection: %w", err)
	}
	if c.Projects, err = s.strings(ctx, `SELECT project FROM connect_projects WHERE connection_id = ? ORDER BY added_at, project`, id); err != nil {
		return c, err
	}
	if c.Channels, err = s.strings(ctx, `SELECT channel FROM connect_channel_invites WHERE connection_id = ? ORDER BY added_at, channel`, id); err != nil {
		return c, err
	}
	return c, nil
}

// Connections lists every connection, newest first.
func (s *Service) Connections(ctx context.Context) ([]Connection, error) {
	ids, err := s.strings(ctx, `SELECT id FROM connect_connections ORDER BY created_at DESC, id`)
	if err != nil {
		return nil, err
	}
	out := make([]Connection, 0, len(ids))
	for _, id := range ids {
		c, err := s.Connection(ctx, id)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

func (s *Service) strings(ctx context.Context, q string, args ...any) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("querying connect store: %w", err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, fmt.Errorf("querying connect store: %w", err)
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// AddProject opens a project to the connection (Projects → Add to project):
// its Notes, knowledge bases, Record channels and whatever is added later.
func (s *Service) AddProject(ctx context.Context, connID, project string) error {
	if strings.TrimSpace(project) == "" {
		return fmt.Errorf("adding project: %w: a project id is required", ErrBadInput)
	}
	if _, err := s.Connection(ctx, connID); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO connect_projects (connection_id, project, added_at) VALUES (?, ?, ?)
		ON CONFLICT (connection_id, project) DO NOTHING`, connID, project, s.ms())
	if err != nil {
		return fmt.Errorf("adding project: %w", err)
	}
	return nil
}

// RemoveProject closes a project to the connection, effective on the next call.
func (s *Service) RemoveProject(ctx context.Context, connID, project string) error {
	return s.execOne(ctx, "removing project", `DELETE FROM connect_projects WHERE connection_id = ? AND project = ?`, connID, project)
}

// InviteChannel invites the connection to a Message channel outside its
// projects (Message channels → Choose a Message channel → Invite). by is
// the person inviting; a private channel needs its owner's invite, which
// the caller checks against the channel.
func (s *Service) InviteChannel(ctx context.Context, connID, channel, by string) error {
	if strings.TrimSpace(channel) == "" {
		return fmt.Errorf("inviting: %w: a channel id is required", ErrBadInput)
	}
	if _, err := s.Connection(ctx, connID); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO connect_channel_invites (connection_id, channel, invited_by, added_at)
		VALUES (?, ?, ?, ?) ON CONFLICT (connection_id, channel) DO NOTHING`, connID, channel, by, s.ms())
	if err != nil {
		return fmt.Errorf("inviting to channel: %w", err)
	}
	return nil
}

// RemoveChannel withdraws a channel invite.
func (s *Service) RemoveChannel(ctx context.Context, connID, channel string) error {
	return s.execOne(ctx, "removing channel invite", `DELETE FROM connect_channel_invites WHERE connection_id = ? AND channel = ?`, connID, channel)
}

func (s *Service) execOne(ctx context.Context, doing, q string, args ...any) error {
	res, err := s.db.ExecContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("%s: %w", doing, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%s: %w", doing, ErrNotFound)
	}
	return nil
}

// Revoke cuts the connection off: every call, even with an unexpired
// token, is denied connection_revoked, and its refresh tokens stop working.
func (s *Service) Revoke(ctx context.Context, connID string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("revoking connection: %w", err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE connect_connections SET status = 'revoked', revoked_at = ? WHERE id = ?`, s.ms(), connID)
	if err != nil {
		return fmt.Errorf("revoking connection: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("revoking connection %q: %w", connID, ErrNotFound)
	}
	// Tokens stay verifiable on purpose: every call is then answered
	// connection_revoked (a tool result the host shows), not a 401 that
	// would send the host into a fresh sign-in loop. Refresh is refused.
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("revoking connection: %w", err)
	}
	return nil
}

// ToolSetting is one row of the connection's Tools checklist.
type ToolSetting struct {
	Name     string `json:"name"`
	Scope    string `json:"scope"`
	ReadOnly bool   `json:"readOnly"`
	Enabled  bool   `json:"enabled"`
}

// Tools lists the supported tools with the connection's ticks.
func (s *Service) Tools(ctx context.Context, connID string) ([]ToolSetting, error) {
	if _, err := s.Connection(ctx, connID); err != nil {
		return nil, err
	}
	off, err := s.strings(ctx, `SELECT tool FROM connect_disabled_tools WHERE connection_id = ?`, connID)
	if err != nil {
		return nil, err
	}
	out := make([]ToolSetting, 0, len(s.cat.order))
	for _, name := range s.cat.order {
		t := s.cat.tools[name]
		out = append(out, ToolSetting{Name: name, Scope: t.Scope, ReadOnly: t.ReadOnly, Enabled: !slices.Contains(off, name)})
	}
	return out, nil
}

// SaveTools keeps exactly the enabled tools on ("Save tools"). It is the
// owner's switch: it holds whatever the client's local config says.
func (s *Service) SaveTools(ctx context.Context, connID string, enabled []string) error {
	for _, n := range enabled {
		if _, ok := s.cat.tools[n]; !ok {
			return fmt.Errorf("saving tools: %w: unknown tool %q", ErrBadInput, n)
		}
	}
	if _, err := s.Connection(ctx, connID); err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("saving tools: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM connect_disabled_tools WHERE connection_id = ?`, connID); err != nil {
		return fmt.Errorf("saving tools: %w", err)
	}
	for _, name := range s.cat.order {
		if slices.Contains(enabled, name) {
			continue
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO connect_disabled_tools (connection_id, tool) VALUES (?, ?)`, connID, name); err != nil {
			return fmt.Errorf("saving tools: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("saving tools: %w", err)
	}
	return nil
}

func splitScopes(s string) []string {
	f := strings.Fields(s)
	if f == nil {
		return []string{}
	}
	return f
}
