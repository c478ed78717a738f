package code

import "context"

// Binding is what the window binds for the Code screen: a workspace's
// repository, its worktree isolation, and the isolated runs with their
// branches to keep or discard. Changes announce themselves as the chats'
// changed event; a run's progress as runs.EventRun.
type Binding struct {
	svc *Service
	ctx context.Context
}

// NewBinding binds svc; each call runs under ctx (it ends when the app
// quits).
func NewBinding(ctx context.Context, svc *Service) *Binding {
	return &Binding{svc: svc, ctx: ctx}
}

// Settings is a workspace's repository, isolation and the folder isolated
// runs use ("" = the app's own workspace).
func (b *Binding) Settings(workspace string) (Settings, error) {
	return b.svc.Settings(b.ctx, workspace)
}

// SetRepo picks the workspace's repository among the Local Folders ("" =
// the most recently added Local Folder).
func (b *Binding) SetRepo(workspace, path string) (Settings, error) {
	return b.svc.SetRepo(b.ctx, workspace, path)
}

// SetEnabled turns worktree isolation on or off for the workspace.
func (b *Binding) SetEnabled(workspace string, on bool) (Settings, error) {
	return b.svc.SetEnabled(b.ctx, workspace, on)
}

// Runs lists the workspace's isolated runs, newest first.
func (b *Binding) Runs(workspace string) ([]Run, error) { return b.svc.Runs(b.ctx, workspace) }

// Keep keeps a run's branch and removes its worktree.
func (b *Binding) Keep(runID string) (Run, error) { return b.svc.Keep(b.ctx, runID) }

// Discard removes a run's worktree and branch.
func (b *Binding) Discard(runID string) error { return b.svc.Discard(b.ctx, runID) }

// SetChatIsolation is a chat's own choice: "on", "off" or "" (follow the
// workspace).
func (b *Binding) SetChatIsolation(chatID, mode string) error {
	return b.svc.SetChatIsolation(b.ctx, chatID, mode)
}

// ChatIsolation is an open chat's isolation: its own choice, the
// workspace's switch, and whether its next writing run gets a branch.
func (b *Binding) ChatIsolation(chatID string) (ChatIsolationState, error) {
	return b.svc.ChatIsolation(b.ctx, chatID)
}
