package roles

import (
	"context"
	"errors"

	"github.com/osfoundry/desktop/backend/tools"
)

// Binding is what the window binds for the External AI tab, Pipeline
// Roles, Local Folders and the Agents screen's list. Wails passes plain
// JSON arguments, so the methods take no context; each call runs under the
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

// ToolCatalogue lists the articles' worker tools and which ones a run of
// this app can call (the Pipeline screen's Worker tools).
func (b *Binding) ToolCatalogue() []tools.CatalogueTool { return tools.Catalogue() }

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
