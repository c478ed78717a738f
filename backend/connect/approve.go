package connect

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// connectionChoice is one "Connection" option of the consent page.
// Carries says what picking it hands the assistant (projects, channels,
// tools); Checked marks the one preselected.
type connectionChoice struct {
	Value, Label, Carries string
	Checked               bool
}

// choices lists the consent page's Connection options: each pending
// connection ("Use pending: <name>"), a new connection, and the
// connections this person approved before ("Keep using: <name>", for an
// assistant asking again for more scopes; hosts re-register on every
// sign-in, so the client id cannot tell it is the same assistant).
//
// Reusing a connected one hands its projects to whoever asks, so it is
// never preselected: the default is a new connection, or a pending one
// the owner set up for this kind of assistant.
func (s *Service) choices(ctx context.Context, user, clientName string) ([]connectionChoice, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, display_name, assistant, status FROM connect_connections
		WHERE status = 'pending' OR (status = 'connected' AND approver = ?) ORDER BY status DESC, created_at DESC`, user)
	if err != nil {
		return nil, fmt.Errorf("listing connections: %w", err)
	}
	type row struct{ id, name, assistant, status string }
	var list []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.id, &r.name, &r.assistant, &r.status); err != nil {
			rows.Close()
			return nil, fmt.Errorf("listing connections: %w", err)
		}
		list = append(list, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("listing connections: %w", err)
	}
	var pending, reuse []connectionChoice
	preselected := false
	kind := assistantFor(clientName)
	for _, r := range list {
		carries, empty, err := s.carries(ctx, r.id)
		if err != nil {
			return nil, err
		}
		if r.status == StatusConnected {
			reuse = append(reuse, connectionChoice{Value: r.id, Label: "Keep using: " + r.name, Carries: carries})
			continue
		}
		c := connectionChoice{Value: r.id, Label: "Use pending: " + r.name}
		if !empty { // the owner may have added projects before sign-in
			c.Carries = carries
		}
		if !preselected && r.assistant == kind {
			c.Checked, preselected = true, true
		}
		pending = append(pending, c)
	}
	out := append(pending, connectionChoice{Value: "new", Label: "Create a new connection", Checked: !preselected})
	return append(out, reuse...), nil
}

// carries says what an existing connection hands over when an assistant
// takes it: "carries over 2 projects (a, b), 1 channel, 5 of 9 tools";
// empty is true when that is nothing beyond a fresh connection's.
func (s *Service) carries(ctx context.Context, connID string) (text string, empty bool, err error) {
	var projects, channels, off []string
	projects, err = s.strings(ctx, `SELECT project FROM connect_projects WHERE connection_id = ? ORDER BY added_at, project`, connID)
	if err != nil {
		return "", false, err
	}
	channels, err = s.strings(ctx, `SELECT channel FROM connect_channel_invites WHERE connection_id = ? ORDER BY added_at, channel`, connID)
	if err != nil {
		return "", false, err
	}
	off, err = s.strings(ctx, `SELECT tool FROM connect_disabled_tools WHERE connection_id = ?`, connID)
	if err != nil {
		return "", false, err
	}
	count := func(n int, one, many string) string {
		if n == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %s", n, many)
	}
	parts := []string{count(len(projects), "project", "projects")}
	if len(projects) > 0 {
		parts[0] += " (" + strings.Join(projects, ", ") + ")"
	}
	parts = append(parts, count(len(channels), "channel", "channels"))
	on := 0
	for _, n := range s.cat.order {
		if !slices.Contains(off, n) {
			on++
		}
	}
	if on == len(s.cat.order) {
		parts = append(parts, "all tools")
	} else {
		parts = append(parts, fmt.Sprintf("%d of %d tools", on, len(s.cat.order)))
	}
	empty = len(projects) == 0 && len(channels) == 0 && len(off) == 0
	return "carries over " + strings.Join(parts, ", "), empty, nil
}

// assistantFor guesses the panel's assistant kind from a client's name.
func assistantFor(clientName string) string {
	n := strings.ToLower(clientName)
	switch {
	case strings.Contains(n, "claude"), strings.Contains(n, "anthropic"):
		return "Claude"
	case strings.Contains(n, "chatgpt"), strings.Contains(n, "openai"):
		return "ChatGPT"
	}
	return "Other MCP client"
}

// approve records the owner's consent: the chosen connection becomes
// connected to exactly one workspace, approved by user. It returns the
// connection id the code is issued for.
func (s *Service) approve(ctx context.Context, a *authRequest, user, workspace, choice string) (string, error) {
	wss, err := s.workspacesFor(ctx, user)
	if err != nil {
		return "", err
	}
	ok := false
	for _, w := range wss {
		ok = ok || w.ID == workspace
	}
	if !ok {
		return "", errors.New("Choose the workspace to connect.")
	}
	c, err := s.client(ctx, a.ClientID)
	if err != nil {
		return "", fmt.Errorf("reading client: %w", err)
	}
	scopes := strings.Join(a.Scopes, " ")
	now := s.ms()
	if choice == "" || choice == "new" {
		id := newID("conn")
		_, err := s.db.ExecContext(ctx, `INSERT INTO connect_connections (id, display_name, assistant, status, workspace, approver, client_id, scopes, created_at, connected_at)
			VALUES (?, ?, ?, 'connected', ?, ?, ?, ?, ?, ?)`, id, c.Name, assistantFor(c.Name), workspace, user, c.ID, scopes, now, now)
		if err != nil {
			return "", fmt.Errorf("creating connection: %w", err)
		}
		return id, nil
	}
	var oldName, status string
	err = s.db.QueryRowContext(ctx, `SELECT display_name, status FROM connect_connections WHERE id = ?`, choice).Scan(&oldName, &status)
	if errors.Is(err, sql.ErrNoRows) {
		return "", errors.New("That connection can no longer be used here. Choose another option.")
	}
	if err != nil {
		return "", fmt.Errorf("reading connection: %w", err)
	}
	// A pending connection keeps the name the owner gave it; a connected one
	// taken over by another assistant shows who holds it now.
	name := oldName
	if status == StatusConnected {
		name = c.Name
	}
	// Only a pending connection, or one this person approved for the same
	// workspace, can be taken over by a consent.
	res, err := s.db.ExecContext(ctx, `UPDATE connect_connections SET status = 'connected', display_name = ?, workspace = ?, approver = ?, client_id = ?, scopes = ?, connected_at = ?
		WHERE id = ? AND (status = 'pending' OR (status = 'connected' AND approver = ? AND workspace = ?))`,
		name, workspace, user, c.ID, scopes, now, choice, user, workspace)
	if err != nil {
		return "", fmt.Errorf("connecting: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return "", errors.New("That connection can no longer be used here. Choose another option.")
	}
	if status == StatusConnected {
		detail := fmt.Sprintf("now used by %s (was %s)", c.Name, oldName)
		if err := s.logActivity(ctx, choice, "consent", "reused", detail); err != nil {
			return "", err
		}
	}
	return choice, nil
}
