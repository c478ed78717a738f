package code

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
)

// Settings is what the Code screen shows for one workspace.
type Settings struct {
	Workspace string `json:"workspace"`
	// Repo is the chosen repository; "" means the most recently added Local Folder.
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

// Settings returns the Code screen's settings of a workspace ("" = the
// app's own).
func (s *Service) Settings(ctx context.Context, workspace string) (Settings, error) {
	cs := Settings{Workspace: wsOrDefault(workspace), Folders: []RepoFolder{}}
	var on int
	err := s.db.QueryRowContext(ctx, `SELECT repo, enabled FROM pipeline_code_repos WHERE workspace = ?`, cs.Workspace).Scan(&cs.Repo, &on)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return cs, fmt.Errorf("reading the Code settings: %w", err)
	}
	cs.Enabled = on == 1
	folders, err := s.o.Folders.Folders(ctx)
	if err != nil {
		return cs, err
	}
	for _, f := range folders {
		rf := RepoFolder{Path: f.Path, Missing: f.Missing}
		if _, err := s.gitTop(ctx, f.Path); err != nil {
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
		cs.Problem = s.o.NoFolders.Error()
	case cs.Repo != "" && !s.isLocalFolder(ctx, cs.Repo):
		cs.Problem = removedRepo(cs.Repo).Error()
	default:
		if _, err := s.gitTop(ctx, cs.Uses); err != nil {
			cs.Problem = err.Error()
		}
	}
	return cs, nil
}

// SetRepo picks a workspace's repository: one of the Local Folders that
// is a git repository ("" = the most recently added Local Folder).
func (s *Service) SetRepo(ctx context.Context, workspace, path string) (Settings, error) {
	ws := wsOrDefault(workspace)
	if path != "" {
		abs, err := filepath.Abs(path)
		if err != nil {
			return Settings{}, fmt.Errorf("choosing the repository %s: %w", path, err)
		}
		if !s.isLocalFolder(ctx, abs) {
			return Settings{}, fmt.Errorf("%s is not one of your Local Folders: add it in Settings → Local Folders first", abs)
		}
		if _, err := s.gitTop(ctx, abs); err != nil {
			return Settings{}, err
		}
		path = abs
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO pipeline_code_repos(workspace, repo, enabled, updated_at) VALUES(?,?,0,?)
		ON CONFLICT(workspace) DO UPDATE SET repo = excluded.repo, updated_at = excluded.updated_at`, ws, path, s.o.Now().UnixMilli()); err != nil {
		return Settings{}, fmt.Errorf("saving the repository: %w", err)
	}
	s.o.Changed("")
	return s.Settings(ctx, ws)
}

// SetEnabled turns worktree isolation on or off for a workspace. Turning
// it on needs a repository to work in.
func (s *Service) SetEnabled(ctx context.Context, workspace string, on bool) (Settings, error) {
	cs, err := s.Settings(ctx, workspace)
	if err != nil {
		return cs, err
	}
	if on && cs.Problem != "" {
		return cs, fmt.Errorf("isolation cannot be turned on: %s", cs.Problem)
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO pipeline_code_repos(workspace, repo, enabled, updated_at) VALUES(?,'',?,?)
		ON CONFLICT(workspace) DO UPDATE SET enabled = excluded.enabled, updated_at = excluded.updated_at`, cs.Workspace, boolInt(on), s.o.Now().UnixMilli()); err != nil {
		return cs, fmt.Errorf("saving the isolation setting: %w", err)
	}
	s.o.Changed("")
	return s.Settings(ctx, cs.Workspace)
}
