package chat

import (
	"context"

	"github.com/osfoundry/desktop/backend/runs"
)

// Binding is what the window binds for the Chat screen and the Agents
// screen's runs (what they are set up with is roles.Binding). Wails passes
// plain JSON arguments, so the methods take no context; each call runs
// under the binding's context, which ends when the app quits.
type Binding struct {
	svc *Service
	ctx context.Context
}

// NewBinding binds svc.
func NewBinding(ctx context.Context, svc *Service) *Binding {
	return &Binding{svc: svc, ctx: ctx}
}

// RunAgent runs an agent on a task outside any chat.
func (b *Binding) RunAgent(agentID, task string, planMode bool) (runs.Run, error) {
	return b.svc.p.RunAgent(b.ctx, agentID, task, planMode)
}

// Chats lists the chats, most recently active first.
func (b *Binding) Chats() ([]Chat, error) { return b.svc.Chats(b.ctx) }

// CreateChat starts an empty chat.
func (b *Binding) CreateChat(n NewChat) (Chat, error) { return b.svc.CreateChat(b.ctx, n) }

// SetChatModel has the chat's runs ask their CLI for model ("" = the
// role's or agent's choice).
func (b *Binding) SetChatModel(chatID, model string) error {
	return b.svc.SetChatModel(b.ctx, chatID, model)
}

// ChatModel is the model picked for a chat ("" = the role's or agent's).
func (b *Binding) ChatModel(chatID string) (string, error) { return b.svc.ChatModel(b.ctx, chatID) }

// GetChat returns a chat with its messages and runs.
func (b *Binding) GetChat(id string) (ChatDetail, error) { return b.svc.GetChat(b.ctx, id) }

// Send gives the chat a task; the run's progress arrives as pipeline:run
// events.
func (b *Binding) Send(chatID, text string) (runs.Run, error) { return b.svc.Send(b.ctx, chatID, text) }

// Cancel stops a run and its whole process group.
func (b *Binding) Cancel(runID string) error { return b.svc.Cancel(runID) }

// Pause freezes a chat's run in progress (chat id) or an agent run (run id).
func (b *Binding) Pause(id string) error { return b.svc.Pause(id) }

// Resume continues a paused chat or agent run.
func (b *Binding) Resume(id string) error { return b.svc.Resume(id) }

// EndChat marks a chat done.
func (b *Binding) EndChat(id string) error { return b.svc.EndChat(b.ctx, id) }

// DeleteChat removes a chat with its messages and runs.
func (b *Binding) DeleteChat(id string) error { return b.svc.DeleteChat(b.ctx, id) }

// ContinueHere opens a chat continuing a Claude Code or Codex session.
func (b *Binding) ContinueHere(agent, sessionID, folder, title string) (Chat, error) {
	return b.svc.ContinueHere(b.ctx, agent, sessionID, folder, title)
}

// SetPlanMode switches a chat's plan mode (from its next task).
func (b *Binding) SetPlanMode(chatID string, on bool) (Chat, error) {
	return b.svc.SetPlanMode(b.ctx, chatID, on)
}

// GetRun returns one run.
func (b *Binding) GetRun(id string) (runs.Run, error) { return b.svc.GetRun(b.ctx, id) }

// DiscardBranch deletes a worktree run's branch.
func (b *Binding) DiscardBranch(runID string) error { return b.svc.DiscardBranch(b.ctx, runID) }
