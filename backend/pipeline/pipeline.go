// Package pipeline resolves a task for a role or an agent into a
// runs.Spec: the model (an agent's preference, else the role's in
// backend/roles, parsed once), the role's prompt with the agent's
// instructions, the folder or the Code screen's worktree (backend/code),
// and the run's bridge tools; then it starts it on the run engine
// (backend/runs). Chats (backend/chat), the Agents screen's runs and
// orchestration's steps (StartRole) start every run here. It keeps no
// table, never runs a CLI and never follows a run once started: that is
// the engine's.
package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/code"
	"github.com/osfoundry/desktop/backend/roles"
	"github.com/osfoundry/desktop/backend/runs"
)

// ToolsFunc gives a run its bridge access (executor, workspace, allowlist),
// or nil for no app tools.
type ToolsFunc func(runID string, role roles.Role) *agentcli.ToolAccess

// Options configure a Service; Roles, Engine and Code are required.
type Options struct {
	Roles  *roles.Service
	Engine *runs.Engine
	Code   *code.Service
	Tools  ToolsFunc
}

// Service resolves tasks into runs. Safe for concurrent use: it keeps no
// state of its own.
type Service struct {
	o Options
}

// New returns the resolver over its three services.
func New(o Options) (*Service, error) {
	if o.Roles == nil || o.Engine == nil || o.Code == nil {
		return nil, errors.New("starting the pipeline: roles, the run engine and code are required")
	}
	return &Service{o: o}, nil
}

// Runs is the run engine every run started here goes to.
func (s *Service) Runs() *runs.Engine { return s.o.Engine }

// Task is one run to start, before it is resolved.
type Task struct {
	ChatID, AgentID, Title string
	Model                  agentcli.Model // parsed once, where the id was read
	Role                   roles.Role
	Instructions           string // an agent's, after the role's prompt
	Folder                 string // "" = the Code screen's choice, else the current Local Folder
	Worktree               bool
	NoWorktree             bool // the chat turned isolation off (the Code screen)
	PlanMode               bool // the bridge refuses tools that change things
	Turns                  []agentcli.Turn
	Resume                 string
	Fork                   bool // resume in a new session (the original is the user's)
	Origin                 runs.Origin
}

// Resolve picks the role, the model id and the instructions: the agent's
// Model Preference and Runtime Role, else the role's model in Pipeline
// Roles.
func (s *Service) Resolve(ctx context.Context, agentID, roleName string) (roles.Role, string, string, error) {
	var instr, pref string
	if agentID != "" {
		a, err := s.o.Roles.GetAgent(ctx, agentID)
		if err != nil {
			return roles.Role{}, "", "", err
		}
		roleName, pref, instr = a.RuntimeRole, a.ModelPreference, a.Instructions
	}
	role, err := roles.LookupRole(roleName)
	if err != nil {
		return roles.Role{}, "", "", err
	}
	model := pref
	if model == "" {
		r, err := s.o.Roles.RoleModel(ctx, role.Name)
		if err != nil {
			return roles.Role{}, "", "", err
		}
		model = r.Model
	}
	if !agentcli.IsCLIModel(model) {
		return roles.Role{}, "", "", fmt.Errorf("the %s role uses %s, which is not an External AI model; the pipeline here runs only cli:* models", role.Name, model)
	}
	return role, model, instr, nil
}

// Check refuses a run that cannot start (model, role, CLI turned off, no
// folder) and fills in the folder. A chat calls it before it keeps the
// person's message, so a refused task is not kept to be shown twice.
func (s *Service) Check(ctx context.Context, t *Task) error {
	m := t.Model
	if m.ID == "" {
		return errors.New("no model for this run: pick one in Pipeline → Pipeline Roles")
	}
	if err := m.CheckRole(t.Role.Name, t.Role.NeedsTools); err != nil {
		return err
	}
	if err := s.enabled(ctx, m); err != nil {
		return err
	}
	// The Code screen's isolation may choose the folder.
	p := code.Placement{ChatID: t.ChatID, Workspace: t.Origin.Workspace, Writes: writes(m, t.Role),
		Folder: t.Folder, Worktree: t.Worktree}
	if err := s.o.Code.Isolate(ctx, &p); err != nil {
		return err
	}
	t.Folder, t.Worktree, t.NoWorktree = p.Folder, p.Worktree, t.NoWorktree || p.Off
	if t.Folder == "" {
		var err error
		if t.Folder, err = s.o.Roles.CurrentFolder(ctx); err != nil {
			return err
		}
	}
	return nil
}

// enabled refuses a CLI turned off in External AI.
func (s *Service) enabled(ctx context.Context, m agentcli.Model) error {
	for _, c := range s.o.Roles.ExternalAI(ctx) {
		if c.Agent == m.Agent && !c.Enabled {
			return fmt.Errorf("%s is turned off: turn it on in External AI", c.Name)
		}
	}
	return nil
}

// Spec checks t and resolves it into what the run engine starts; the
// caller may add its own hooks (a chat keeps the answer) before
// runs.Engine.Start.
func (s *Service) Spec(ctx context.Context, t *Task) (runs.Spec, error) {
	if err := s.Check(ctx, t); err != nil {
		return runs.Spec{}, err
	}
	m := t.Model
	if m.Agent == agentcli.Codex && t.Role.NeedsTools && t.Resume == "" && !t.NoWorktree && inGitRepo(t.Folder) {
		// Codex gets the app's tools only with git isolation: without a
		// worktree it would run them on the person's own checkout.
		t.Worktree = true
	}
	prompt := t.Role.Prompt
	if t.Instructions != "" {
		prompt += "\n\n" + t.Instructions
	}
	rs := runs.Spec{Title: t.Title, ChatID: t.ChatID, AgentID: t.AgentID, Model: m, Role: t.Role.Name,
		NeedsTools: t.Role.NeedsTools, SystemPrompt: prompt, Turns: t.Turns, Folder: t.Folder, Worktree: t.Worktree,
		PlanMode: t.PlanMode, Resume: t.Resume, Fork: t.Fork, Origin: t.Origin}
	if s.o.Tools != nil {
		role := t.Role
		rs.Tools = func(runID string) *agentcli.ToolAccess { return s.o.Tools(runID, role) }
	}
	if t.Worktree && (m.Agent != agentcli.Codex || t.Resume == "") {
		ws := t.Origin.Workspace
		rs.Recorded = func(ctx context.Context, runID string) error {
			return s.o.Code.RecordIsolated(ctx, runID, ws)
		}
	}
	return rs, nil
}

// Start resolves t and starts it; it returns the run running.
func (s *Service) Start(ctx context.Context, t Task) (runs.Run, error) {
	rs, err := s.Spec(ctx, &t)
	if err != nil {
		return runs.Run{}, err
	}
	return s.o.Engine.Start(ctx, rs)
}

// writes reports whether a run of model m in role can change files: every
// Codex run, and Claude with its own tools.
func writes(m agentcli.Model, role roles.Role) bool {
	return m.Agent == agentcli.Codex || (!m.Chat && role.NeedsTools)
}

// inGitRepo reports whether folder is inside a git working tree.
func inGitRepo(folder string) bool {
	for dir := folder; ; {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		dir = parent
	}
}
