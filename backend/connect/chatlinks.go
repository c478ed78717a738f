package connect

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// TextChatWaits is the card under a linked chat (docs/reference.md §6). osFoundry
// has no way into a host's conversations: it cannot open, list or notify a
// chat, so work routed to one waits until the person opens that chat and
// asks it to look.
const TextChatWaits = "Work assigned to a linked chat waits until you open that chat and ask it to review the work. osFoundry cannot open the chat or send it notifications."

// ChatLink is a chat that linked itself to one of the connection's projects
// with link_current_chat. Its label is what the chat declared: a routing
// hint, never an identity.
type ChatLink struct {
	Project  string    `json:"project"`
	Label    string    `json:"label"`
	LinkedAt time.Time `json:"linkedAt" ts_type:"string"`
}

// ChatLinkRows lists linked chats. A Store that does not implement it
// shows no linked chats (the chats can still link themselves).
type ChatLinkRows interface {
	// ChatLinks lists connID's linked chats, oldest first.
	ChatLinks(ctx context.Context, connID string) ([]ChatLink, error)
}

var _ ChatLinkRows = (*SQLiteStore)(nil)

// ChatLinks lists the connection's linked chats, oldest first.
func (s *SQLiteStore) ChatLinks(ctx context.Context, connID string) ([]ChatLink, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT project, label, linked_at FROM connect_chat_links
		WHERE connection_id = ? ORDER BY linked_at, project, label`, connID)
	if err != nil {
		return nil, fmt.Errorf("listing linked chats: %w", err)
	}
	defer rows.Close()
	out := []ChatLink{}
	for rows.Next() {
		var l ChatLink
		var at int64
		if err := rows.Scan(&l.Project, &l.Label, &at); err != nil {
			return nil, fmt.Errorf("listing linked chats: %w", err)
		}
		l.LinkedAt = fromMS(at)
		out = append(out, l)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("listing linked chats: %w", err)
	}
	return out, nil
}

// chatLinks fills c.ChatLinks with the chats linked to projects c still
// has: a link to a project the owner removed routes nothing.
func (s *Service) chatLinks(ctx context.Context, c *Connection) error {
	c.ChatLinks = []ChatLink{}
	rows, ok := s.st.(ChatLinkRows)
	if !ok {
		return nil
	}
	links, err := rows.ChatLinks(ctx, c.ID)
	if err != nil {
		return fmt.Errorf("reading the chats linked to connection %s: %w", c.ID, err)
	}
	for _, l := range links {
		if slices.Contains(c.Projects, l.Project) {
			c.ChatLinks = append(c.ChatLinks, l)
		}
	}
	return nil
}
