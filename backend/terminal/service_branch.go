package terminal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/osfoundry/desktop/backend/worktree"
)

// BranchRequest asks for a pane on a new branch: osf/<Name> from Base ("":
// the repository's current branch).
type BranchRequest struct {
	Name string `json:"name"`
	Base string `json:"base"`
}

// SetupStore keeps each repository's personal set-up (the app's settings;
// the repository's .osfoundry/worktree.toml wins per key). The pane store
// does, when it has these methods.
type SetupStore interface {
	WorktreeSetup(repo string) (worktree.Config, error)
	SaveWorktreeSetup(repo string, c worktree.Config) error
}

func (m *Manager) setups() SetupStore {
	m.mu.Lock()
	defer m.mu.Unlock()
	st, _ := m.specs.(SetupStore)
	return st
}

// BranchPlan is what the New pane form shows for "On a new branch" in a
// folder: where the worktree goes, the branches to start from, and the
// set-up that will run, with where each part of it comes from.
type BranchPlan struct {
	// Problem says why the folder cannot have a pane on a new branch
	// ("" when it can): not a git repository, no commits.
	Problem  string             `json:"problem"`
	Repo     string             `json:"repo"`     // the repository's top folder
	Folder   string             `json:"folder"`   // where worktrees go: <repo>.osf-worktrees
	Current  string             `json:"current"`  // the checkout's branch ("" when detached)
	Detached string             `json:"detached"` // says the checkout is detached, and at what
	Branches []string           `json:"branches"` // local branches, the current one first
	Setup    worktree.Effective `json:"setup"`
	Personal worktree.Config    `json:"personal"` // the person's own set-up for this repository
}

// BranchPlan reads what a pane on a new branch in dir would get.
func (s *Service) BranchPlan(dir string) (BranchPlan, error) {
	dir, err := expandHome(strings.TrimSpace(dir))
	if err != nil {
		return BranchPlan{}, err
	}
	ctx, env := context.Background(), s.env()
	top, err := worktree.Top(ctx, env, dir)
	if err != nil {
		return BranchPlan{Problem: err.Error(), Branches: []string{}, Setup: worktree.Merge(dir, worktree.Config{})}, nil
	}
	personal := s.personalSetup(top)
	plan := BranchPlan{Repo: top, Folder: filepath.Dir(worktree.Folder(top, "x")), Setup: worktree.Merge(top, personal), Personal: personal}
	if plan.Current, err = worktree.CurrentBranch(ctx, env, top); err != nil {
		plan.Detached = err.Error()
	}
	if plan.Branches, err = worktree.Branches(ctx, env, top); err != nil {
		return plan, err
	}
	if len(plan.Branches) == 0 {
		plan.Problem = top + " has no commits yet, so a new branch has nothing to start from — commit once and try again"
	}
	return plan, nil
}

// SavePersonalSetup keeps the person's own set-up for the repository dir
// is in.
func (s *Service) SavePersonalSetup(dir string, c worktree.Config) error {
	st := s.m.setups()
	if st == nil {
		return errors.New("saving the set-up: no settings store")
	}
	top, err := worktree.Top(context.Background(), s.env(), dir)
	if err != nil {
		return err
	}
	c.Setup = strings.TrimSpace(c.Setup)
	var globs []string
	for _, g := range c.Copy {
		if g = strings.TrimSpace(g); g == "" {
			continue
		}
		if err := worktree.CheckPattern(g); err != nil {
			return err
		}
		globs = append(globs, g)
	}
	c.Copy = globs
	return st.SaveWorktreeSetup(top, c)
}

func (s *Service) personalSetup(top string) worktree.Config {
	st := s.m.setups()
	if st == nil {
		return worktree.Config{}
	}
	c, err := st.WorktreeSetup(top)
	if err != nil {
		fmt.Fprintln(os.Stderr, "osfoundry:", err) // the repository's file still applies
	}
	return c
}

// helper is the program that runs a set-up command in a pane before its
// program (`<helper> pane setup -- <argv…>`): the app's own binary.
func (s *Service) helper() string {
	if s.exe != "" {
		return s.exe
	}
	exe, err := os.Executable()
	if err != nil {
		return "osfoundry"
	}
	return exe
}

// createOnBranch makes the pane's worktree and starts the pane in it; a
// pane that fails to start takes its new worktree and branch with it.
func (s *Service) createOnBranch(req CreateRequest, dir string, argv []string) (Info, error) {
	ctx, env := context.Background(), s.env()
	top, err := worktree.Top(ctx, env, dir)
	if err != nil {
		return Info{}, err
	}
	eff := worktree.Merge(top, s.personalSetup(top))
	if eff.Problem != "" {
		return Info{}, fmt.Errorf("%s — nothing was created", eff.Problem)
	}
	tr, err := worktree.Create(ctx, worktree.Request{Repo: top, Name: strings.TrimSpace(req.Branch.Name), Base: req.Branch.Base, Env: env}, eff.Config)
	if err != nil {
		return Info{}, err
	}
	o := Options{ID: newID(), Dir: tr.Dir, Argv: argv, Env: env, Cols: req.Cols, Rows: req.Rows,
		Branch: &Branch{Repo: tr.Repo, Worktree: tr.Dir, Name: tr.Branch, Base: tr.Base, BaseCommit: tr.BaseCommit}}
	// The folder picked inside the repository is the one the pane opens.
	if rel, err := filepath.Rel(top, dir); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
		if st, err := os.Stat(filepath.Join(tr.Dir, rel)); err == nil && st.IsDir() {
			o.Dir = filepath.Join(tr.Dir, rel)
		}
	}
	o.Notice = "On " + tr.Branch + " from " + tr.Base + " in " + tr.Dir
	for _, n := range tr.Notes {
		o.Notice += "\r\n" + n
	}
	if eff.Config.Setup != "" {
		o.Before = []string{s.helper(), "pane", "setup", "--"}
		if len(o.Argv) == 0 {
			o.Argv = []string{DefaultShell()}
		}
		o.Env = append(append([]string(nil), o.Env...), worktree.EnvSetupCommand+"="+eff.Config.Setup,
			worktree.EnvSetupLimit+"="+strconv.Itoa(int(eff.Config.Limit().Seconds())))
	}
	info, err := s.m.create(o)
	if err != nil {
		worktree.Discard(env, tr)
		return Info{}, fmt.Errorf("%w — the new worktree and branch were removed", err)
	}
	return info, nil
}
