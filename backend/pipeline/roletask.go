package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/runs"
)

// RoleTask is a run of one pipeline role on a task, outside any chat (an
// agent card on the board), started by a tool rather than a person.
type RoleTask struct {
	Role string
	Task string
	// Model overrides the role's assigned model (the zero Model: Pipeline
	// Roles'); the caller parsed it where it took the id.
	Model  agentcli.Model
	Title  string // "" = the role and the task's first words
	Origin runs.Origin
}

// StartRole starts a role run and returns it running. The role's model
// comes from Pipeline Roles; the folder is the origin's, else the current
// Local Folder.
func (s *Service) StartRole(ctx context.Context, t RoleTask) (runs.Run, error) {
	if strings.TrimSpace(t.Task) == "" {
		return runs.Run{}, errors.New("the task is empty: say what the run should do")
	}
	role, model, _, err := s.Resolve(ctx, "", t.Role)
	if err != nil {
		return runs.Run{}, err
	}
	m := t.Model
	if m.ID == "" {
		// The one parse of the role's id: the run engine and the CLI get
		// it typed.
		if m, err = agentcli.ParseModel(model); err != nil {
			return runs.Run{}, err
		}
	}
	title := t.Title
	if title == "" {
		title = role.Name + " · " + firstWords(t.Task, 8)
	}
	return s.Start(ctx, Task{Title: title, Model: m, Role: role, Origin: t.Origin, Folder: t.Origin.Folder,
		Turns: []agentcli.Turn{{Role: "user", Text: t.Task}}})
}

// RunAgent runs one of the Agents screen's agents on a task outside any
// chat: an Agent card on the board. In plan mode the run's bridge refuses
// every tool that changes things.
func (s *Service) RunAgent(ctx context.Context, agentID, task string, planMode bool) (runs.Run, error) {
	a, err := s.o.Roles.GetAgent(ctx, agentID)
	if err != nil {
		return runs.Run{}, err
	}
	if strings.TrimSpace(task) == "" {
		return runs.Run{}, errors.New("the task is empty: type what the agent should do")
	}
	role, model, instr, err := s.Resolve(ctx, agentID, a.RuntimeRole)
	if err != nil {
		return runs.Run{}, err
	}
	m, err := agentcli.ParseModel(model)
	if err != nil {
		return runs.Run{}, err
	}
	return s.Start(ctx, Task{AgentID: agentID, Title: a.Name, Model: m, Role: role, Instructions: instr,
		PlanMode: planMode, Turns: []agentcli.Turn{{Role: "user", Text: task}}})
}

// CheckRoles reports, before anything starts, why runs of these roles in
// folder ("" = the current Local Folder) could not start (unknown role, no
// model, CLI turned off, no folder), so a graph fails at once rather than
// after its first stages ran.
func (s *Service) CheckRoles(ctx context.Context, folder string, names ...string) error {
	for _, name := range names {
		role, model, _, err := s.Resolve(ctx, "", name)
		if err != nil {
			return err
		}
		m, err := agentcli.ParseModel(model)
		if err != nil {
			return err
		}
		if err := m.CheckRole(role.Name, role.NeedsTools); err != nil {
			return err
		}
		if err := s.enabled(ctx, m); err != nil {
			return err
		}
	}
	if folder != "" {
		if fi, err := os.Stat(folder); err != nil || !fi.IsDir() {
			return fmt.Errorf("the folder %s is no longer there", folder)
		}
		return nil
	}
	_, err := s.o.Roles.CurrentFolder(ctx)
	return err
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		return strings.Join(f[:n], " ") + "…"
	}
	return strings.Join(f, " ")
}
