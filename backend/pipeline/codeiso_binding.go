package pipeline

import "context"

// CodeBinding is what the window binds for the Code screen: a workspace's
// repository, its worktree isolation, and the isolated runs with their
// branches to keep or discard. Changes announce themselves as
// EventChanged; a run's progress as EventRun.
type CodeBinding struct {
	svc *Service
	ctx context.Context
}

// NewCodeBinding binds svc; each call runs under ctx (it ends when the app
// quits).
func NewCodeBinding(ctx context.Context, svc *Service) *CodeBinding {
	return &CodeBinding{svc: svc, ctx: ctx}
}

// Settings is a workspace's repository, isolation and the folder isolated
// runs use ("" = the app's own workspace).
func (b *CodeBinding) Settings(workspace string) (CodeSettings, error) {
	return b.svc.CodeSettings(b.ctx, workspace)
}

// SetRepo picks the workspace's repository among the Local Folders ("" =
// the first Local Folder).
func (b *CodeBinding) SetRepo(workspace, path string) (CodeSettings, error) {
	return b.svc.SetCodeRepo(b.ctx, workspace, path)
}

// SetEnabled turns worktree isolation on or off for the workspace.
func (b *CodeBinding) SetEnabled(workspace string, on bool) (CodeSettings, error) {
	return b.svc.SetCodeIsolation(b.ctx, workspace, on)
}

// Runs lists the workspace's isolated runs, newest first.
func (b *CodeBinding) Runs(workspace string) ([]CodeRun, error) {
	return b.svc.CodeRuns(b.ctx, workspace)
}

// Keep keeps a run's branch and removes its worktree.
func (b *CodeBinding) Keep(runID string) (CodeRun, error) { return b.svc.KeepRun(b.ctx, runID) }

// Discard removes a run's worktree and branch.
func (b *CodeBinding) Discard(runID string) error { return b.svc.DiscardRun(b.ctx, runID) }

// SetChatIsolation is a chat's own choice: "on", "off" or "" (follow the
// workspace).
func (b *CodeBinding) SetChatIsolation(chatID, mode string) error {
	return b.svc.SetChatIsolation(b.ctx, chatID, mode)
}

// ChatIsolation is an open chat's isolation: its own choice, the
// workspace's switch, and whether its next writing run gets a branch.
func (b *CodeBinding) ChatIsolation(chatID string) (ChatIsolationState, error) {
	return b.svc.ChatIsolation(b.ctx, chatID)
}
