package code

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// Isolation modes of a chat.
const (
	IsolationWorkspace = "" // follow the workspace's setting
	IsolationOn        = "on"
	IsolationOff       = "off"
)

// SetChatIsolation sets a chat's own choice: IsolationOn, IsolationOff, or
// IsolationWorkspace to follow the workspace again.
func (s *Service) SetChatIsolation(ctx context.Context, chatID, mode string) error {
	if _, err := s.o.Chats.ChatWorktree(ctx, chatID); err != nil {
		return err
	}
	var err error
	switch mode {
	case IsolationWorkspace:
		// The older per-chat checkbox would otherwise read as "on".
		if err = s.o.Chats.ClearChatWorktree(ctx, chatID); err == nil {
			_, err = s.db.ExecContext(ctx, `DELETE FROM pipeline_code_chats WHERE chat_id = ?`, chatID)
		}
	case IsolationOn, IsolationOff:
		_, err = s.db.ExecContext(ctx, `INSERT INTO pipeline_code_chats(chat_id, mode) VALUES(?,?)
			ON CONFLICT(chat_id) DO UPDATE SET mode = excluded.mode`, chatID, mode)
	default:
		return fmt.Errorf("isolation %q: use \"on\", \"off\" or \"\" (follow the workspace)", mode)
	}
	if err != nil {
		return fmt.Errorf("saving the chat's isolation: %w", err)
	}
	s.o.Changed(chatID)
	return nil
}

// ChatIsolationState is a chat's isolation as the open chat shows it.
type ChatIsolationState struct {
	Mode      string `json:"mode"`      // the chat's own choice: "on", "off", or "" (the workspace's)
	Workspace bool   `json:"workspace"` // the workspace's switch
	Effective bool   `json:"effective"` // its next writing run gets its own branch
}

// ChatIsolation reads a chat's isolation (chats started in the window
// belong to the app's own workspace).
func (s *Service) ChatIsolation(ctx context.Context, chatID string) (ChatIsolationState, error) {
	checkbox, err := s.o.Chats.ChatWorktree(ctx, chatID)
	if err != nil {
		return ChatIsolationState{}, err
	}
	st := ChatIsolationState{Mode: s.chatMode(ctx, chatID, checkbox)}
	var on int
	err = s.db.QueryRowContext(ctx, `SELECT enabled FROM pipeline_code_repos WHERE workspace = ?`, DefaultWorkspace).Scan(&on)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return st, fmt.Errorf("reading the Code settings: %w", err)
	}
	st.Workspace = on == 1
	st.Effective = st.Mode == IsolationOn || (st.Mode == IsolationWorkspace && st.Workspace)
	return st, nil
}

// chatMode is a chat's own choice (the older per-chat checkbox counts as
// "on").
func (s *Service) chatMode(ctx context.Context, chatID string, checkbox bool) string {
	var mode string
	if err := s.db.QueryRowContext(ctx, `SELECT mode FROM pipeline_code_chats WHERE chat_id = ?`, chatID).Scan(&mode); err == nil {
		return mode
	}
	if checkbox {
		return IsolationOn
	}
	return IsolationWorkspace
}

// Placement is where a run about to start works, as its caller resolved
// it so far; Isolate completes it.
type Placement struct {
	ChatID    string // "" for a run outside any chat
	Workspace string // the run's Origin.Workspace ("" = the window's)
	// Writes: the run can change files (every Codex run, Claude with its
	// own tools); only those are isolated by the workspace's switch.
	Writes bool
	// Folder is the run's folder; "" lets isolation pick the repository.
	Folder string
	// Worktree: the run gets its own branch and worktree (in: the chat's
	// older checkbox).
	Worktree bool
	// Off: the chat turned isolation off, so nothing may isolate the run.
	Off bool
}

// Isolate applies the workspace's isolation and the chat's override to a
// run: its folder (the Code screen's repository, else the first Local
// Folder, when the run names none) and whether it gets a worktree. It runs
// before the folder falls back to the current Local Folder and may run
// twice for one run: the second call sees the folder the first one chose
// and decides alike.
func (s *Service) Isolate(ctx context.Context, p *Placement) error {
	mode := IsolationWorkspace
	if p.ChatID != "" {
		mode = s.chatMode(ctx, p.ChatID, p.Worktree)
	}
	if mode == IsolationOff {
		p.Worktree, p.Off = false, true
		return nil
	}
	var repo string
	var on int
	err := s.db.QueryRowContext(ctx, `SELECT repo, enabled FROM pipeline_code_repos WHERE workspace = ?`, wsOrDefault(p.Workspace)).Scan(&repo, &on)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("reading the Code settings: %w", err)
	}
	if mode == IsolationOn {
		// The chat isolates its runs itself: in the repository picked on
		// the Code screen when there is one.
		if p.Folder == "" && repo != "" && s.isLocalFolder(ctx, repo) {
			p.Folder = repo
		}
		p.Worktree = true
		return nil
	}
	if on == 0 || !p.Writes {
		return nil
	}
	if repo != "" && !s.isLocalFolder(ctx, repo) {
		if p.Folder != "" && !within(p.Folder, repo) {
			return nil // the run works elsewhere on purpose (a chat's own folder)
		}
		return fmt.Errorf("worktree isolation is on for this workspace, but %w", removedRepo(repo))
	}
	if repo == "" {
		if repo, err = s.currentFolder(ctx); err != nil {
			return err
		}
	}
	if p.Folder != "" && !within(p.Folder, repo) {
		return nil // the run works elsewhere on purpose (a chat's own folder)
	}
	if _, err := s.gitTop(ctx, repo); err != nil {
		return fmt.Errorf("worktree isolation is on for this workspace, but %s — fix it on the Code screen or turn isolation off there", strings.TrimSuffix(err.Error(), "."))
	}
	if p.Folder == "" {
		p.Folder = repo
	}
	p.Worktree = true
	return nil
}

// within reports whether dir is root or inside it.
func within(dir, root string) bool {
	if root == "" {
		return false
	}
	rel, err := filepath.Rel(filepath.Clean(root), filepath.Clean(dir))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// RecordIsolated lists a worktree run on its workspace's Code screen (the
// engine calls it through runs.Spec.Recorded, once the run has its id).
func (s *Service) RecordIsolated(ctx context.Context, runID, workspace string) error {
	if _, err := s.db.ExecContext(ctx, `INSERT OR IGNORE INTO pipeline_code_runs(run_id, workspace) VALUES(?,?)`, runID, wsOrDefault(workspace)); err != nil {
		return fmt.Errorf("recording the isolated run: %w", err)
	}
	return nil
}
