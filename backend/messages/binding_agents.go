package messages

import "context"

// AddAgent adds Claude Code or Codex (cli "claude" or "codex") to a
// channel with a role; it answers posts that mention @name.
func (b *Binding) AddAgent(channelID, name, cli, role string) (ChannelAgent, error) {
	return b.s.AddAgent(b.ctx, ChannelAgent{Channel: channelID, Name: name, CLI: cli, Role: role})
}

// ChannelAgents lists a channel's agents.
func (b *Binding) ChannelAgents(channelID string) ([]ChannelAgent, error) {
	return b.s.ChannelAgents(b.ctx, channelID)
}

// RemoveAgent removes an agent from a channel.
func (b *Binding) RemoveAgent(channelID, agentID string) error {
	return b.s.RemoveAgent(b.ctx, channelID, agentID)
}

// ServeBindingAgents has the channels' agents answer their mentions through run
// (the app's run engine) for as long as ctx lasts.
func ServeBindingAgents(ctx context.Context, b *Binding, run AgentRunner, logf func(string, ...any)) *Agents {
	return ServeAgents(ctx, b.s, run, logf)
}
