package messages

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/osfoundry/desktop/backend/lazy"
)

// Agent CLIs a channel can have.
const (
	AgentClaude = "claude"
	AgentCodex  = "codex"
)

// ErrAgentsUnavailable: this store's engine keeps no channel agents (the
// team server's; agents run on the desktop, where the run engine is).
var ErrAgentsUnavailable = errors.New("agents in channels run only in the desktop app")

// ChannelAgent is an agent added to a Message channel: it reads the
// channel and answers when a post mentions @Name.
type ChannelAgent struct {
	ID        string `json:"id"`
	Channel   string `json:"channel_id"`
	Name      string `json:"name"`
	CLI       string `json:"cli"` // AgentClaude or AgentCodex
	Role      string `json:"role"`
	CreatedAt string `json:"created_at"`
}

// AgentRows keeps channel agents; a Backend that has them implements it.
type AgentRows interface {
	InsertAgent(ctx context.Context, a ChannelAgent) error
	ChannelAgents(ctx context.Context, channel string) ([]ChannelAgent, error)
	DeleteAgent(ctx context.Context, channel, id string) error
}

var agentName = lazy.Regexp(`^[A-Za-z][A-Za-z0-9_-]{0,31}$`)

func (s *Store) agentRows() (AgentRows, error) {
	r, ok := s.b.(AgentRows)
	if !ok {
		return nil, ErrAgentsUnavailable
	}
	return r, nil
}

// AddAgent adds an agent to a channel. The name is what people type after
// @ (letters, digits, - and _, up to 32, starting with a letter), once per
// channel.
func (s *Store) AddAgent(ctx context.Context, a ChannelAgent) (ChannelAgent, error) {
	rows, err := s.agentRows()
	if err != nil {
		return ChannelAgent{}, err
	}
	a.Name = strings.TrimPrefix(strings.TrimSpace(a.Name), "@")
	if !agentName().MatchString(a.Name) {
		return ChannelAgent{}, fmt.Errorf("%w: an agent's name is what people type after @: a letter, then letters, digits, - or _ (at most 32)", ErrInvalid)
	}
	if a.CLI != AgentClaude && a.CLI != AgentCodex {
		return ChannelAgent{}, fmt.Errorf("%w: choose Claude Code or Codex", ErrInvalid)
	}
	if strings.TrimSpace(a.Role) == "" {
		return ChannelAgent{}, fmt.Errorf("%w: choose a role", ErrInvalid)
	}
	if _, err := s.Channel(ctx, a.Channel); err != nil {
		return ChannelAgent{}, fmt.Errorf("adding an agent: %w", err)
	}
	have, err := rows.ChannelAgents(ctx, a.Channel)
	if err != nil {
		return ChannelAgent{}, fmt.Errorf("reading the channel's agents: %w", err)
	}
	for _, h := range have {
		if strings.EqualFold(h.Name, a.Name) {
			return ChannelAgent{}, fmt.Errorf("%w: the channel already has an agent called @%s", ErrInvalid, h.Name)
		}
	}
	a.ID, a.CreatedAt = newID("ag_"), s.stamp()
	if err := rows.InsertAgent(ctx, a); err != nil {
		return ChannelAgent{}, fmt.Errorf("adding an agent: %w", err)
	}
	return a, nil
}

// ChannelAgents lists a channel's agents in the order they were added
// (none where the engine keeps no agents).
func (s *Store) ChannelAgents(ctx context.Context, channel string) ([]ChannelAgent, error) {
	rows, err := s.agentRows()
	if err != nil {
		return []ChannelAgent{}, nil
	}
	as, err := rows.ChannelAgents(ctx, channel)
	if err != nil {
		return nil, fmt.Errorf("reading the channel's agents: %w", err)
	}
	return as, nil
}

// RemoveAgent removes an agent from a channel; its earlier posts stay.
func (s *Store) RemoveAgent(ctx context.Context, channel, id string) error {
	rows, err := s.agentRows()
	if err != nil {
		return err
	}
	if err := rows.DeleteAgent(ctx, channel, id); err != nil {
		return fmt.Errorf("removing the agent: %w", err)
	}
	return nil
}

// Mentioned returns the agents a text mentions as @name (case-insensitive,
// not inside a longer word or an e-mail address).
func Mentioned(text string, agents []ChannelAgent) []ChannelAgent {
	var out []ChannelAgent
	lower := strings.ToLower(text)
	for _, a := range agents {
		tag := "@" + strings.ToLower(a.Name)
		for i := 0; ; {
			j := strings.Index(lower[i:], tag)
			if j < 0 {
				break
			}
			at, end := i+j, i+j+len(tag)
			before := at == 0 || !wordByte(lower[at-1])
			after := end == len(lower) || !wordByte(lower[end])
			if before && after {
				out = append(out, a)
				break
			}
			i = end
		}
	}
	return out
}

func wordByte(b byte) bool {
	return b == '_' || b == '-' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 0x80
}
