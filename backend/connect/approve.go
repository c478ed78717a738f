package connect

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
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
	held, err := s.carriedOver(ctx, user)
	if err != nil {
		return nil, err
	}
	var pending, reuse []connectionChoice
	preselected := false
	kind := assistantFor(clientName)
	for _, r := range list {
		h := held[r.id]
		if h == nil {
			h = &carried{}
		}
		if r.status == StatusConnected {
			reuse = append(reuse, connectionChoice{Value: r.id, Label: "Keep using: " + r.name, Carries: h.text(len(s.cat.order))})
			continue
		}
		c := connectionChoice{Value: r.id, Label: "Use pending: " + r.name}
		if len(h.projects) > 0 || h.channels > 0 || h.off > 0 { // the owner may have set it up before sign-in
			c.Carries = h.text(len(s.cat.order))
		}
		if !preselected && r.assistant == kind {
			c.Checked, preselected = true, true
		}
		pending = append(pending, c)
	}
	out := append(pending, connectionChoice{Value: "new", Label: "Create a new connection", Checked: !preselected})
	return append(out, reuse...), nil
}

// carried is what an existing connection hands to an assistant that takes it.
type carried struct {
	projects      []string
	channels, off int
}

// text says it: "carries over 2 projects (a, b), 1 channel, 5 of 9 tools".
func (c carried) text(tools int) string {
	count := func(n int, one, many string) string {
		if n == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %s", n, many)
	}
	parts := []string{count(len(c.projects), "project", "projects")}
	if len(c.projects) > 0 {
		parts[0] += " (" + strings.Join(c.projects, ", ") + ")"
	}
	parts = append(parts, count(c.channels, "channel", "channels"))
	if c.off == 0 {
		parts = append(parts, "all tools")
	} else {
		parts = append(parts, fmt.Sprintf("%d of %d tools", tools-c.off, tools))
	}
	return "carries over " + strings.Join(parts, ", ")
}

// carriedOver reads, in one query however many there are, what each
// connection the consent page may offer to user would carry over.
func (s *Service) carriedOver(ctx context.Context, user string) (map[string]*carried, error) {
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
	out := map[string]*carried{}
	for rows.Next() {
		var kind, id, v string
		var at int64
		if err := rows.Scan(&kind, &id, &v, &at); err != nil {
			return nil, fmt.Errorf("reading what connections carry: %w", err)
		}
		c := out[id]
		if c == nil {
			c = &carried{}
			out[id] = c
		}
		switch _, known := s.cat.tools[v]; {
		case kind == "project":
			c.projects = append(c.projects, v)
		case kind == "channel":
			c.channels++
		case known: // a tool since removed from the catalogue counts for nothing
			c.off++
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading what connections carry: %w", err)
	}
	return out, nil
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
