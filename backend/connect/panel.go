package connect

import (
	"context"
	"time"
)

// DefaultAddr is where the desktop app serves the endpoint. A fixed port
// keeps the address assistants saved valid across restarts.
const DefaultAddr = "127.0.0.1:8765"

// Panel is the "Connected agents" panel's API: methods without a context
// that return concrete types, ready to bind to the window. Every change
// takes effect on the assistant's next call.
type Panel struct {
	ctx context.Context
	svc *Service
	srv *Server
}

// NewPanel binds the panel to a running server (for its address and
// sign-in links). ctx is the app's lifetime.
func NewPanel(ctx context.Context, svc *Service, srv *Server) *Panel {
	return &Panel{ctx: ctx, svc: svc, srv: srv}
}

// PanelTexts are the panel's fixed strings (docs/reference.md §6), so the window and the
// backend cannot drift apart.
type PanelTexts struct {
	Pending, Connected, Revoked, ToolsOn, ChatWaits string
	Assistants                                      []string
}

// Texts returns the fixed strings.
func (p *Panel) Texts() PanelTexts {
	return PanelTexts{Pending: TextPending, Connected: TextConnected, Revoked: TextRevoked, ToolsOn: TextToolsOn, ChatWaits: TextChatWaits,
		Assistants: Assistants}
}

// ServerAddress is the URL users paste into their assistant (Copy button).
func (p *Panel) ServerAddress() string { return p.srv.ResourceURL() }

// AddAssistant is "Add assistant": a pending connection with zero projects.
func (p *Panel) AddAssistant(assistant, displayName string) (Connection, error) {
	return p.svc.CreateConnection(p.ctx, assistant, displayName)
}

// Connections lists every connection, newest first.
func (p *Panel) Connections() ([]Connection, error) { return p.svc.Connections(p.ctx) }

// AddToProject opens a project to the connection (Projects → Add to project).
func (p *Panel) AddToProject(connID, projectID string) (Connection, error) {
	if err := p.svc.AddProject(p.ctx, connID, projectID); err != nil {
		return Connection{}, err
	}
	return p.svc.Connection(p.ctx, connID)
}

// RemoveFromProject closes a project to the connection.
func (p *Panel) RemoveFromProject(connID, projectID string) (Connection, error) {
	if err := p.svc.RemoveProject(p.ctx, connID, projectID); err != nil {
		return Connection{}, err
	}
	return p.svc.Connection(p.ctx, connID)
}

// InviteChannel is Message channels → Choose a Message channel → Invite.
func (p *Panel) InviteChannel(connID, channelID string) (Connection, error) {
	if err := p.svc.InviteChannel(p.ctx, connID, channelID, OwnerID); err != nil {
		return Connection{}, err
	}
	return p.svc.Connection(p.ctx, connID)
}

// RemoveChannel withdraws a Message channel invite.
func (p *Panel) RemoveChannel(connID, channelID string) (Connection, error) {
	if err := p.svc.RemoveChannel(p.ctx, connID, channelID); err != nil {
		return Connection{}, err
	}
	return p.svc.Connection(p.ctx, connID)
}

// Tools is the connection's Tools checklist.
func (p *Panel) Tools(connID string) ([]ToolSetting, error) { return p.svc.Tools(p.ctx, connID) }

// SaveTools is "Save tools": exactly enabled stay on.
func (p *Panel) SaveTools(connID string, enabled []string) ([]ToolSetting, error) {
	if err := p.svc.SaveTools(p.ctx, connID, enabled); err != nil {
		return nil, err
	}
	return p.svc.Tools(p.ctx, connID)
}

// Revoke is "Revoke connection".
func (p *Panel) Revoke(connID string) (Connection, error) {
	if err := p.svc.Revoke(p.ctx, connID); err != nil {
		return Connection{}, err
	}
	return p.svc.Connection(p.ctx, connID)
}

// RecentActivity lists a connection's newest calls ("" for all).
func (p *Panel) RecentActivity(connID string) ([]Activity, error) {
	return p.svc.RecentActivity(p.ctx, connID, 50)
}

// NeedsApproval lists proposals waiting for the owner.
func (p *Panel) NeedsApproval() ([]Proposal, error) { return p.svc.Proposals(p.ctx, "pending") }

// Approve approves a proposal.
func (p *Panel) Approve(id string) (Proposal, error) { return p.svc.Decide(p.ctx, id, OwnerID, true) }

// Decline declines a proposal.
func (p *Panel) Decline(id string) (Proposal, error) { return p.svc.Decide(p.ctx, id, OwnerID, false) }

// SignInLink is a one-time link that signs the person at this machine in
// to the consent page; the window opens it in the system browser, which
// then continues to a consent waiting for sign-in.
func (p *Panel) SignInLink() (string, error) { return p.srv.SignInURL(p.ctx, OwnerID, 5*time.Minute) }
