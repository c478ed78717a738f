package pipeline

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/store"
)

// The Code screen: a workspace's code repository (one of the Local
// Folders, a git repository) and "Enable for this workspace", which gives
// every Codex run and every Claude run that writes its own branch and
// worktree there. A chat can override it either way.

// codeComponent is the store.Migrate component of the Code screen's tables
// (apart from the pipeline's own, so the two evolve independently).
const codeComponent = "pipeline_code"

var codeMigrations = []store.Migration{{Version: 1, SQL: `
CREATE TABLE pipeline_code_repos (
	workspace  TEXT PRIMARY KEY,
	repo       TEXT NOT NULL DEFAULT '', -- '' = the first Local Folder
	enabled    INTEGER NOT NULL DEFAULT 0,
	updated_at INTEGER NOT NULL
);
-- Runs that worked in a worktree, by workspace, with what the user decided.
CREATE TABLE pipeline_code_runs (
	run_id    TEXT PRIMARY KEY,
	workspace TEXT NOT NULL,
	decision  TEXT NOT NULL DEFAULT '' CHECK (decision IN ('', 'kept', 'discarded'))
);
CREATE INDEX pipeline_code_runs_ws ON pipeline_code_runs(workspace);
-- A chat's own choice: 'on' or 'off'; no row follows the workspace.
CREATE TABLE pipeline_code_chats (
	chat_id TEXT PRIMARY KEY,
	mode    TEXT NOT NULL CHECK (mode IN ('on', 'off'))
);
`}}

// DefaultWorkspace is the workspace of runs started in the window (an
// empty Origin.Workspace): notes.DefaultWorkspace, which the bridge binds
// them to (workers.runAccess).
const DefaultWorkspace = "default"

// Isolation modes of a chat.
const (
	IsolationWorkspace = "" // follow the workspace's setting
	IsolationOn        = "on"
	IsolationOff       = "off"
)

// ErrNotRepository is wrapped when a folder offered as a code repository
// is not a git repository (or has no commit to branch from).
var ErrNotRepository = errors.New("is not a git repository")

// CodeSettings is what the Code screen shows for one workspace.
type CodeSettings struct {
	Workspace string `json:"workspace"`
	// Repo is the chosen repository; "" means the first Local Folder.
	Repo    string `json:"repo"`
	Enabled bool   `json:"enabled"`
	// Uses is the folder isolated runs work in now ("" when there is none)
	// and UsesFrom says why: "code" (picked here) or "first-folder".
	Uses     string `json:"uses"`
	UsesFrom string `json:"usesFrom"`
	// Problem says why isolated runs could not start now ("" when they can).
	Problem string `json:"problem,omitempty"`
	// Folders are the Local Folders to pick from, each with whether it is a
	// git repository.
	Folders []RepoFolder `json:"folders"`
}

// RepoFolder is one Local Folder as a candidate repository.
type RepoFolder struct {
	Path    string `json:"path"`
	Git     bool   `json:"git"`
	Missing bool   `json:"missing"`
	// Why it cannot be picked ("" when it can).
	Reason string `json:"reason,omitempty"`
}

func wsOrDefault(ws string) string {
	if ws = strings.TrimSpace(ws); ws == "" {
		return DefaultWorkspace
	}
	return ws
}

// gitTop returns the top folder of the repository dir is in, refusing a
// folder outside git or a repository without a commit.
func gitTop(ctx context.Context, dir string) (string, error) {
	run := func(args ...string) (string, error) {
		ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
		out, err := cmd.Output()
		return strings.TrimSpace(string(out)), err
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return "", fmt.Errorf("%s is no longer there: add it again in Settings → Local Folders", dir)
	}
	top, err := run("rev-parse", "--show-toplevel")
	if err != nil || top == "" {
		return "", fmt.Errorf("%s %w: run `git init` there and commit once, or pick a folder that is one", dir, ErrNotRepository)
	}
	if _, err := run("rev-parse", "--verify", "HEAD^{commit}"); err != nil {
		return "", fmt.Errorf("the repository %s has no commits yet, so a run branch has nothing to start from: commit once and try again", top)
	}
	return top, nil
}

// CodeSettings returns the Code screen's settings of a workspace ("" = the
// app's own).
func (s *Service) CodeSettings(ctx context.Context, workspace string) (CodeSettings, error) {
	cs := CodeSettings{Workspace: wsOrDefault(workspace), Folders: []RepoFolder{}}
	var on int
	err := s.db.QueryRowContext(ctx, `SELECT repo, enabled FROM pipeline_code_repos WHERE workspace = ?`, cs.Workspace).Scan(&cs.Repo, &on)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return cs, fmt.Errorf("reading the Code settings: %w", err)
	}
	cs.Enabled = on == 1
	folders, err := s.Folders(ctx)
	if err != nil {
		return cs, err
	}
	for _, f := range folders {
		rf := RepoFolder{Path: f.Path, Missing: f.Missing}
		if _, err := gitTop(ctx, f.Path); err != nil {
			rf.Reason = err.Error()
		} else {
			rf.Git = true
		}
		cs.Folders = append(cs.Folders, rf)
	}
	cs.Uses, cs.UsesFrom = cs.Repo, "code"
	if cs.Repo == "" {
		cs.UsesFrom = "first-folder"
		if len(folders) > 0 {
			cs.Uses = folders[0].Path
		}
	}
	switch {
	case cs.Uses == "":
		cs.Problem = ErrNoFolders.Error()
	case cs.Repo != "" && !s.isLocalFolder(ctx, cs.Repo):
		cs.Problem = removedRepo(cs.Repo).Error()
	default:
		if _, err := gitTop(ctx, cs.Uses); err != nil {
			cs.Problem = err.Error()
		}
	}
	return cs, nil
}

func (s *Service) isLocalFolder(ctx context.Context, path string) bool {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM pipeline_folders WHERE path = ?`, path).Scan(&n)
	return err == nil && n > 0
}

func removedRepo(path string) error {
	return fmt.Errorf("%s is no longer one of your Local Folders: add it again in Settings → Local Folders, or pick another repository on the Code screen", path)
}

// SetCodeRepo picks a workspace's repository: one of the Local Folders
// that is a git repository ("" = the first Local Folder).
func (s *Service) SetCodeRepo(ctx context.Context, workspace, path string) (CodeSettings, error) {
	ws := wsOrDefault(workspace)
	if path != "" {
		abs, err := filepath.Abs(path)
		if err != nil {
			return CodeSettings{}, fmt.Errorf("choosing the repository %s: %w", path, err)
		}
		folders, err := s.Folders(ctx)
		if err != nil {
			return CodeSettings{}, err
		}
		found := false
		for _, f := range folders {
			found = found || f.Path == abs
		}
		if !found {
			return CodeSettings{}, fmt.Errorf("%s is not one of your Local Folders: add it in Settings → Local Folders first", abs)
		}
		if _, err := gitTop(ctx, abs); err != nil {
			return CodeSettings{}, err
		}
		path = abs
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO pipeline_code_repos(workspace, repo, enabled, updated_at) VALUES(?,?,0,?)
		ON CONFLICT(workspace) DO UPDATE SET repo = excluded.repo, updated_at = excluded.updated_at`, ws, path, s.now().UnixMilli()); err != nil {
		return CodeSettings{}, fmt.Errorf("saving the repository: %w", err)
	}
	s.changed("")
	return s.CodeSettings(ctx, ws)
}

// SetCodeIsolation turns worktree isolation on or off for a workspace.
// Turning it on needs a repository to work in.
func (s *Service) SetCodeIsolation(ctx context.Context, workspace string, on bool) (CodeSettings, error) {
	cs, err := s.CodeSettings(ctx, workspace)
	if err != nil {
		return cs, err
	}
	if on && cs.Problem != "" {
		return cs, fmt.Errorf("isolation cannot be turned on: %s", cs.Problem)
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO pipeline_code_repos(workspace, repo, enabled, updated_at) VALUES(?,'',?,?)
		ON CONFLICT(workspace) DO UPDATE SET enabled = excluded.enabled, updated_at = excluded.updated_at`, cs.Workspace, boolInt(on), s.now().UnixMilli()); err != nil {
		return cs, fmt.Errorf("saving the isolation setting: %w", err)
	}
	s.changed("")
	return s.CodeSettings(ctx, cs.Workspace)
}

// SetChatIsolation sets a chat's own choice: IsolationOn, IsolationOff, or
// IsolationWorkspace to follow the workspace again.
func (s *Service) SetChatIsolation(ctx context.Context, chatID, mode string) error {
	if _, err := s.getChat(ctx, chatID); err != nil {
		return err
	}
	var err error
	switch mode {
	case IsolationWorkspace:
		// The older per-chat checkbox would otherwise read as "on".
		if _, err = s.db.ExecContext(ctx, `UPDATE pipeline_chats SET worktree = 0 WHERE id = ?`, chatID); err == nil {
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
	s.changed(chatID)
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
	c, err := s.getChat(ctx, chatID)
	if err != nil {
		return ChatIsolationState{}, err
	}
	st := ChatIsolationState{Mode: s.chatIsolation(ctx, chatID, c.Worktree)}
	var on int
	err = s.db.QueryRowContext(ctx, `SELECT enabled FROM pipeline_code_repos WHERE workspace = ?`, DefaultWorkspace).Scan(&on)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return st, fmt.Errorf("reading the Code settings: %w", err)
	}
	st.Workspace = on == 1
	st.Effective = st.Mode == IsolationOn || (st.Mode == IsolationWorkspace && st.Workspace)
	return st, nil
}

// chatIsolation is a chat's own choice (the older per-chat checkbox counts
// as "on").
func (s *Service) chatIsolation(ctx context.Context, chatID string, checkbox bool) string {
	var mode string
	if err := s.db.QueryRowContext(ctx, `SELECT mode FROM pipeline_code_chats WHERE chat_id = ?`, chatID).Scan(&mode); err == nil {
		return mode
	}
	if checkbox {
		return IsolationOn
	}
	return IsolationWorkspace
}

// writes reports whether a run of model m in role can change files: every
// Codex run, and Claude with its own tools.
func writes(m agentcli.Model, role Role) bool {
	return m.Agent == agentcli.Codex || (!m.Chat && role.NeedsTools)
}

// isolate applies the workspace's isolation and the chat's override to a
// run: its folder (the Code screen's repository, else the first Local
// Folder, when the run names none) and whether it gets a worktree. It runs
// before the folder falls back to the current Local Folder and may run
// twice for one run (Send, then start): the second call sees the folder
// the first one chose and decides alike.
func (s *Service) isolate(ctx context.Context, spec *runSpec, m agentcli.Model) error {
	mode := IsolationWorkspace
	if spec.chatID != "" {
		mode = s.chatIsolation(ctx, spec.chatID, spec.worktree)
	}
	if mode == IsolationOff {
		spec.worktree, spec.noWorktree = false, true
		return nil
	}
	var repo string
	var on int
	err := s.db.QueryRowContext(ctx, `SELECT repo, enabled FROM pipeline_code_repos WHERE workspace = ?`, wsOrDefault(spec.origin.Workspace)).Scan(&repo, &on)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("reading the Code settings: %w", err)
	}
	if mode == IsolationOn {
		// The chat isolates its runs itself: in the repository picked on
		// the Code screen when there is one.
		if spec.folder == "" && repo != "" && s.isLocalFolder(ctx, repo) {
			spec.folder = repo
		}
		spec.worktree = true
		return nil
	}
	if on == 0 || !writes(m, spec.role) {
		return nil
	}
	if repo != "" && !s.isLocalFolder(ctx, repo) {
		if spec.folder != "" && !within(spec.folder, repo) {
			return nil // the run works elsewhere on purpose (a chat's own folder)
		}
		return fmt.Errorf("worktree isolation is on for this workspace, but %w", removedRepo(repo))
	}
	if repo == "" {
		if repo, err = s.CurrentFolder(ctx); err != nil {
			return err
		}
	}
	if spec.folder != "" && !within(spec.folder, repo) {
		return nil // the run works elsewhere on purpose (a chat's own folder)
	}
	if _, err := gitTop(ctx, repo); err != nil {
		return fmt.Errorf("worktree isolation is on for this workspace, but %s — fix it on the Code screen or turn isolation off there", strings.TrimSuffix(err.Error(), "."))
	}
	if spec.folder == "" {
		spec.folder = repo
	}
	spec.worktree = true
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

// recordIsolated lists a worktree run on its workspace's Code screen.
func (s *Service) recordIsolated(ctx context.Context, runID, workspace string) error {
	if _, err := s.db.ExecContext(ctx, `INSERT OR IGNORE INTO pipeline_code_runs(run_id, workspace) VALUES(?,?)`, runID, wsOrDefault(workspace)); err != nil {
		return fmt.Errorf("recording the isolated run: %w", err)
	}
	return nil
}
