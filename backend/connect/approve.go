package connect

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
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
// Taking over a connection hands its projects to whoever asks, so neither
// a connected nor a pending one is ever preselected: the default is a new
// connection. The client's name cannot choose for the owner either: any
// client may call itself "Claude" and would get the pending connection the
// owner prepared for Claude.
func (s *Service) choices(ctx context.Context, user string) ([]connectionChoice, error) {
	list, err := s.st.Offered(ctx, user)
	if err != nil {
		return nil, err
	}
	held, err := s.carriedOver(ctx, user)
	if err != nil {
		return nil, err
	}
	var pending, reuse []connectionChoice
	for _, r := range list {
		h := held[r.ID]
		if h == nil {
			h = &carried{}
		}
		if r.Status == StatusConnected {
			reuse = append(reuse, connectionChoice{Value: r.ID, Label: "Keep using: " + r.DisplayName,
				Carries: h.text(len(s.cat.order)) + "; signs out the assistant using it now"})
			continue
		}
		c := connectionChoice{Value: r.ID, Label: "Use pending: " + r.DisplayName}
		if len(h.projects) > 0 || h.channels > 0 || h.off > 0 { // the owner may have set it up before sign-in
			c.Carries = h.text(len(s.cat.order))
		}
		pending = append(pending, c)
	}
	out := append(pending, connectionChoice{Value: "new", Label: "Create a new connection", Checked: true})
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
	rows, err := s.st.Carried(ctx, user)
	if err != nil {
		return nil, err
	}
	out := map[string]*carried{}
	for _, r := range rows {
		c := out[r.ConnectionID]
		if c == nil {
			c = &carried{}
			out[r.ConnectionID] = c
		}
		switch _, known := s.cat.tools[r.Value]; {
		case r.Kind == "project":
			c.projects = append(c.projects, r.Value)
		case r.Kind == "channel":
			c.channels++
		case known: // a tool since removed from the catalogue counts for nothing
			c.off++
		}
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
	now := time.UnixMilli(s.ms())
	if choice == "" || choice == "new" {
		id := newID("conn")
		if err := s.st.InsertConnection(ctx, ConnectionRow{ID: id, DisplayName: c.Name, Assistant: assistantFor(c.Name), Status: StatusConnected,
			Workspace: workspace, Approver: user, ClientID: c.ID, Scopes: scopes, CreatedAt: now, ConnectedAt: now}); err != nil {
			return "", fmt.Errorf("creating connection: %w", err)
		}
		return id, nil
	}
	gone := errors.New("That connection can no longer be used here. Choose another option.")
	old, err := s.st.Connection(ctx, choice)
	if errors.Is(err, ErrNotFound) {
		return "", gone
	}
	if err != nil {
		return "", fmt.Errorf("reading connection: %w", err)
	}
	oldName, status := old.DisplayName, old.Status
	// A pending connection keeps the name the owner gave it; a connected one
	// taken over by another assistant shows who holds it now.
	name := oldName
	if status == StatusConnected {
		name = c.Name
	}
	// Only a pending connection, or one this person approved for the same
	// workspace, can be taken over by a consent. The assistant that held
	// it is signed out in the same step: its access and refresh tokens,
	// and codes it has not redeemed, stop working. Otherwise two
	// assistants would share the connection, the owner believing the old
	// one gone. The new assistant's code is issued after this.
	took, err := s.st.TakeOver(ctx, ConnectionRow{ID: choice, DisplayName: name, Workspace: workspace, Approver: user,
		ClientID: c.ID, Scopes: scopes, ConnectedAt: now})
	if err != nil {
		return "", err
	}
	if !took {
		return "", gone
	}
	if status == StatusConnected {
		detail := fmt.Sprintf("now used by %s (was %s, signed out)", c.Name, oldName)
		if err := s.logActivity(ctx, choice, "consent", "reused", detail); err != nil {
			return "", err
		}
	}
	return choice, nil
}
