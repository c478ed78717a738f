package connect

import (
	"context"
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

// Panel texts (docs/reference.md §6, exact).
const (
	TextPending   = "Setup pending. This assistant cannot read or change anything yet."
	TextConnected = "Connected."
	TextRevoked   = "Revoked."
	TextToolsOn   = "All supported tools are on by default."
)

// Connection is one assistant's access, as the Connected panel shows it.
type Connection struct {
	ID          string   `json:"id"`
	DisplayName string   `json:"displayName"`
	Assistant   string   `json:"assistant"`
	Status      string   `json:"status"`
	StatusText  string   `json:"statusText"`
	Workspace   string   `json:"workspace"`
	Approver    string   `json:"approver"`
	Scopes      []string `json:"scopes"`
	Projects    []string `json:"projects"`
	Channels    []string `json:"channels"`
	// ChatLinks are the chats linked to its projects, shown under them.
	ChatLinks   []ChatLink `json:"chatLinks"`
	CreatedAt   time.Time  `json:"createdAt" ts_type:"string"`
	ConnectedAt time.Time  `json:"connectedAt" ts_type:"string"`
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
	if err := s.st.InsertConnection(ctx, ConnectionRow{ID: id, DisplayName: displayName, Assistant: assistant,
		Status: StatusPending, CreatedAt: time.UnixMilli(s.ms())}); err != nil {
		return Connection{}, fmt.Errorf("adding assistant: %w", err)
	}
	return s.Connection(ctx, id)
}

// Connection returns one connection with its projects and channel invites.
func (s *Service) Connection(ctx context.Context, id string) (Connection, error) {
	c, err := s.st.Connection(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return c, fmt.Errorf("connection %q: %w (list them with `osfoundry connections list`)", id, ErrNotFound)
	}
	if err != nil {
		return c, fmt.Errorf("reading connection: %w", err)
	}
	c.StatusText = statusText(c.Status)
	if c.Scopes == nil {
		c.Scopes = []string{}
	}
	if c.Projects == nil {
		c.Projects = []string{}
	}
	if c.Channels == nil {
		c.Channels = []string{}
	}
	if err := s.chatLinks(ctx, &c); err != nil {
		return c, err
	}
	return c, nil
}

// Connections lists every connection, newest first.
func (s *Service) Connections(ctx context.Context) ([]Connection, error) {
	ids, err := s.st.ConnectionIDs(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing connections: %w", err)
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

// AddProject opens a project to the connection (Projects → Add to project):
// its Notes, knowledge bases, Record channels and whatever is added later.
func (s *Service) AddProject(ctx context.Context, connID, project string) error {
	if strings.TrimSpace(project) == "" {
		return fmt.Errorf("adding project: %w: a project id is required", ErrBadInput)
	}
	if _, err := s.Connection(ctx, connID); err != nil {
		return err
	}
	return s.st.AddProject(ctx, connID, project, time.UnixMilli(s.ms()))
}

// RemoveProject closes a project to the connection, effective on the next call.
func (s *Service) RemoveProject(ctx context.Context, connID, project string) error {
	changed, err := s.st.RemoveProject(ctx, connID, project)
	return found("removing project", changed, err)
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
	return s.st.InviteChannel(ctx, connID, channel, by, time.UnixMilli(s.ms()))
}

// RemoveChannel withdraws a channel invite.
func (s *Service) RemoveChannel(ctx context.Context, connID, channel string) error {
	changed, err := s.st.RemoveChannel(ctx, connID, channel)
	return found("removing channel invite", changed, err)
}

// found turns a Store's (changed, error) into ErrNotFound when nothing was.
func found(doing string, changed bool, err error) error {
	if err != nil {
		return err
	}
	if !changed {
		return fmt.Errorf("%s: %w", doing, ErrNotFound)
	}
	return nil
}

// Revoke cuts the connection off: every call, even with an unexpired
// token, is denied connection_revoked, and its refresh tokens stop working.
func (s *Service) Revoke(ctx context.Context, connID string) error {
	ok, err := s.st.Revoke(ctx, connID, time.UnixMilli(s.ms()))
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("revoking connection %q: %w", connID, ErrNotFound)
	}
	// Tokens stay verifiable on purpose: every call is then answered
	// connection_revoked (a tool result the host shows), not a 401 that
	// would send the host into a fresh sign-in loop. Refresh is refused.
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
	off, err := s.st.DisabledTools(ctx, connID)
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
	var off []string
	for _, name := range s.cat.order {
		if !slices.Contains(enabled, name) {
			off = append(off, name)
		}
	}
	return s.st.SetDisabledTools(ctx, connID, off)
}

func splitScopes(s string) []string {
	f := strings.Fields(s)
	if f == nil {
		return []string{}
	}
	return f
}
