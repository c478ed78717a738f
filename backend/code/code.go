// Package code is the Code screen: a workspace's code repository (one of
// the Local Folders, a git repository), "Enable for this workspace", which
// gives every Codex run and every Claude run that writes its own branch and
// worktree there, a chat's own choice either way, and the isolated runs
// with their branches to keep or discard.
//
// It decides where a run works (Isolate) before the run starts and lists
// the run once the engine recorded it (RecordIsolated); it never starts,
// stops or records a run itself: backend/runs does, and the branch and the
// diff it reads are the engine's. It never reads chats or Local Folders'
// tables: the caller passes them in as Options.Folders and Options.Chats.
package code

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/runs"
	"github.com/osfoundry/desktop/backend/shellenv"
	"github.com/osfoundry/desktop/backend/store"
)

// component is the store.Migrate component of the Code screen's tables
// (the name they were created under, so stored settings carry over).
const component = "pipeline_code"

var migrations = []store.Migration{{Version: 1, SQL: `
CREATE TABLE pipeline_code_repos (
	workspace  TEXT PRIMARY KEY,
	repo       TEXT NOT NULL DEFAULT '', -- '' = the most recently added Local Folder
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

// ErrNotRepository is wrapped when a folder offered as a code repository
// is not a git repository (or has no commit to branch from).
var ErrNotRepository = errors.New("is not a git repository")

// Folder is one Local Folder as this package needs it.
type Folder struct {
	Path    string
	Missing bool
}

// Folders lists the Local Folders, the one runs use first; it returns
// NoFolders' error when there is none to fall back to.
type Folders interface {
	Folders(ctx context.Context) ([]Folder, error)
}

// Chats is what a chat's isolation needs of the chat: that it exists, the
// older per-chat checkbox, and clearing that checkbox.
type Chats interface {
	ChatWorktree(ctx context.Context, chatID string) (bool, error)
	ClearChatWorktree(ctx context.Context, chatID string) error
}

// Options configure a Service.
type Options struct {
	DB      *sql.DB
	Engine  *runs.Engine // the runs' branches, diffs and worktrees
	Folders Folders
	Chats   Chats
	// NoFolders is the error when no Local Folder is set.
	NoFolders error
	// Changed says the Code screen's data changed (chat id or "").
	Changed func(chatID string)
	Now     func() time.Time
}

// Service keeps the Code screen's settings and its list of isolated runs.
// Safe for concurrent use.
type Service struct {
	o  Options
	db *sql.DB
}

// New migrates the Code screen's tables and returns the service.
func New(ctx context.Context, o Options) (*Service, error) {
	if o.DB == nil || o.Engine == nil || o.Folders == nil || o.Chats == nil {
		return nil, errors.New("starting the Code screen: a database, the run engine, the Local Folders and the chats are required")
	}
	if err := store.Migrate(ctx, o.DB, component, migrations); err != nil {
		return nil, fmt.Errorf("starting the Code screen: %w", err)
	}
	if o.Changed == nil {
		o.Changed = func(string) {}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.NoFolders == nil {
		o.NoFolders = errors.New("no local folder is set: add one in Settings → Local Folders")
	}
	return &Service{o: o, db: o.DB}, nil
}

func wsOrDefault(ws string) string {
	if ws = strings.TrimSpace(ws); ws == "" {
		return DefaultWorkspace
	}
	return ws
}

// gitTop returns the top folder of the repository dir is in, refusing a
// folder outside git or a repository without a commit.
func (s *Service) gitTop(ctx context.Context, dir string) (string, error) {
	// git runs as the runs' own git does (agentcli): found on, and run
	// with, the runner's environment, whose PATH is the login shell's; the
	// window's own PATH may be empty (started from a menu).
	env := append(slices.Clip(s.o.Engine.Runner().Env().Environ), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	run := func(args ...string) (string, error) {
		ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		cmd, err := shellenv.CommandIn(ctx, env, "git", append([]string{"-C", dir}, args...)...)
		if err != nil {
			return "", err
		}
		out, err := cmd.Output()
		return strings.TrimSpace(string(out)), err
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return "", fmt.Errorf("%s is no longer there: add it again in Settings → Local Folders", dir)
	}
	top, err := run("rev-parse", "--show-toplevel")
	if errors.Is(err, shellenv.ErrProgramMissing) {
		return "", fmt.Errorf("cannot tell whether %s is a git repository: %w", dir, err)
	}
	if err != nil || top == "" {
		return "", fmt.Errorf("%s %w: run `git init` there and commit once, or pick a folder that is one", dir, ErrNotRepository)
	}
	if _, err := run("rev-parse", "--verify", "HEAD^{commit}"); err != nil {
		return "", fmt.Errorf("the repository %s has no commits yet, so a run branch has nothing to start from: commit once and try again", top)
	}
	return top, nil
}

func (s *Service) isLocalFolder(ctx context.Context, path string) bool {
	fs, err := s.o.Folders.Folders(ctx)
	want := sameFolderKey(path)
	return err == nil && slices.ContainsFunc(fs, func(f Folder) bool { return f.Path == path || sameFolderKey(f.Path) == want })
}

// sameFolderKey is a folder's path with symlinks resolved, so a repository
// picked before Local Folders were saved in that form still matches one.
func sameFolderKey(path string) string {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	return filepath.Clean(path)
}

// currentFolder is the folder runs use: the most recently added one.
func (s *Service) currentFolder(ctx context.Context) (string, error) {
	fs, err := s.o.Folders.Folders(ctx)
	if err != nil {
		return "", err
	}
	if len(fs) == 0 {
		return "", s.o.NoFolders
	}
	return fs[0].Path, nil
}

func removedRepo(path string) error {
	return fmt.Errorf("%s is no longer one of your Local Folders: add it again in Settings → Local Folders, or pick another repository on the Code screen", path)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
