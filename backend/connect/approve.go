package connect

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// connectionChoice is one "Connection" option of the consent page.
type connectionChoice struct {
	Value, Label string
}

// choices lists the consent page's Connection options: each pending
// connection ("Use pending: <name>"), the connections this person approved
// before ("Keep using: <name>", for an assistant asking again for more
// scopes; hosts re-register on every sign-in, so the client id cannot tell
// it is the same assistant), and a new connection.
func (s *Service) choices(ctx context.Context, user string) ([]connectionChoice, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, display_name, status FROM connect_connections
		WHERE status = 'pending' OR (status = 'connected' AND approver = ?) ORDER BY status DESC, created_at DESC`, user)
	if err != nil {
		return nil, fmt.Errorf("listing connections: %w", err)
	}
	defer rows.Close()
	var out []connectionChoice
	for rows.Next() {
		var id, name, status string
		if err := rows.Scan(&id, &name, &status); err != nil {
			return nil, fmt.Errorf("listing connections: %w", err)
		}
		label := "Use pending: " + name
		if status == StatusConnected {
			label = "Keep using: " + name
		}
		out = append(out, connectionChoice{Value: id, Label: label})
	}
	out = append(out, connectionChoice{Value: "new", Label: "Create a new connection"})
	return out, rows.Err()
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
	// Only a pending connection, or one this person approved for the same
	// workspace, can be taken over by a consent.
	res, err := s.db.ExecContext(ctx, `UPDATE connect_connections SET status = 'connected', workspace = ?, approver = ?, client_id = ?, scopes = ?, connected_at = ?
		WHERE id = ? AND (status = 'pending' OR (status = 'connected' AND approver = ? AND workspace = ?))`,
		workspace, user, c.ID, scopes, now, choice, user, workspace)
	if err != nil {
		return "", fmt.Errorf("connecting: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return "", errors.New("That connection can no longer be used here. Choose another option.")
	}
	return choice, nil
}
