package pipeline

import (
	"context"
	"errors"
)

// Binding is what the window binds for the External AI tab, Pipeline
// Roles, Local Folders, Agents and Chat screens. Wails passes plain JSON
// arguments, so the methods take no context; each call runs under the
// binding's context, which ends when the app quits.
type Binding struct {
	svc  *Service
	ctx  context.Context
	open PaneOpener
}

// PaneOpener starts a Terminal pane running a Sign in command and returns
// the pane's id (the app passes terminal.Manager.Create).
type PaneOpener func(SignIn) (string, error)

// SignInPane is what "Sign in" opened: the pane to show and the hint.
type SignInPane struct {
	PaneID string   `json:"paneId"`
	Argv   []string `json:"argv"`
	Hint   string   `json:"hint"`
}

// NewBinding binds svc. open may be nil when the app has no terminal
// (then Sign in says so).
func NewBinding(ctx context.Context, svc *Service, open PaneOpener) *Binding {
	return &Binding{svc: svc, ctx: ctx, open: open}
}

// ExternalAI lists the Claude Code and Codex rows.
func (b *Binding) ExternalAI() []CLI { return b.svc.ExternalAI(b.ctx) }

// SetEnabled turns a CLI on or off for the pipeline.
func (b *Binding) SetEnabled(agent string, on bool) (CLI, error) {
	return b.svc.SetEnabled(b.ctx, agent, on)
}

// StartVerify starts "Verify sign-in": a minimal completion through the
// same command builder as real runs, in the background (EventVerify
// reports it); it refuses a second start while one runs.
func (b *Binding) StartVerify(agent string) (VerifyState, error) {
	return b.svc.StartVerify(b.ctx, agent)
}

// CancelVerify stops a running sign-in check.
func (b *Binding) CancelVerify(agent string) error { return b.svc.CancelVerify(agent) }

// VerifyStates is every CLI's check, running or finished, so a tab opened
// again shows where it stands.
func (b *Binding) VerifyStates() []VerifyState { return b.svc.VerifyStates() }

// SignIn opens a Terminal pane running the CLI's login (Claude's own
// prompt, where the user types /login; `codex login`).
func (b *Binding) SignIn(agent string) (SignInPane, error) {
	if b.open == nil {
		return SignInPane{}, errors.New("signing in needs a terminal pane, and this window has none: run the CLI's login in your own terminal")
	}
	si, err := b.svc.SignInCommand(agent)
	if err != nil {
		return SignInPane{}, err
	}
	id, err := b.open(si)
	if err != nil {
		return SignInPane{}, err
	}
	return SignInPane{PaneID: id, Argv: si.Argv, Hint: si.Hint}, nil
}

// RoleNames lists the pipeline's roles in display order.
func (b *Binding) RoleNames() []string { return RoleNames() }

// Roles lists every role with its assigned model.
func (b *Binding) Roles() ([]Role, error) { return b.svc.Roles(b.ctx) }

// SetRoleModel assigns a model to a role ("" clears it).
func (b *Binding) SetRoleModel(role, model string) (Role, error) {
	return b.svc.SetRoleModel(b.ctx, role, model)
}

// ModelGroups is the model picker for a role ("" for none in particular).
func (b *Binding) ModelGroups(role string) ([]ModelGroup, error) {
	return b.svc.ModelGroups(b.ctx, role)
}

// Folders lists the Local Folders, the one runs use first.
func (b *Binding) Folders() ([]Folder, error) { return b.svc.Folders(b.ctx) }

// AddFolder adds a Local Folder (or makes an existing one current).
func (b *Binding) AddFolder(path string) (Folder, error) { return b.svc.AddFolder(b.ctx, path) }

// RemoveFolder forgets a Local Folder; its files are not touched.
func (b *Binding) RemoveFolder(id int64) error { return b.svc.RemoveFolder(b.ctx, id) }

// Agents lists the Agents screen's agents.
func (b *Binding) Agents() ([]Agent, error) { return b.svc.Agents(b.ctx) }

// SaveAgent creates (no id) or updates an agent.
func (b *Binding) SaveAgent(a Agent) (Agent, error) { return b.svc.SaveAgent(b.ctx, a) }

// DeleteAgent removes an agent.
func (b *Binding) DeleteAgent(id string) error { return b.svc.DeleteAgent(b.ctx, id) }

// RunAgent runs an agent on a task outside any chat.
func (b *Binding) RunAgent(agentID, task string, planMode bool) (Run, error) {
	return b.svc.RunAgent(b.ctx, agentID, task, planMode)
}

// Chats lists the chats, most recently active first.
func (b *Binding) Chats() ([]Chat, error) { return b.svc.Chats(b.ctx) }

// CreateChat starts an empty chat.
func (b *Binding) CreateChat(n NewChat) (Chat, error) { return b.svc.CreateChat(b.ctx, n) }

// GetChat returns a chat with its messages and runs.
func (b *Binding) GetChat(id string) (ChatDetail, error) { return b.svc.GetChat(b.ctx, id) }

// Send gives the chat a task; the run's progress arrives as pipeline:run
// events.
func (b *Binding) Send(chatID, text string) (Run, error) { return b.svc.Send(b.ctx, chatID, text) }

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
func (b *Binding) GetRun(id string) (Run, error) { return b.svc.GetRun(b.ctx, id) }

// DiscardBranch deletes a worktree run's branch.
func (b *Binding) DiscardBranch(runID string) error { return b.svc.DiscardBranch(b.ctx, runID) }
