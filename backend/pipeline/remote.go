package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/osfoundry/desktop/backend/agentcli"
)

// Origin says who started a run. It decides how the run's bridge is bound
// (workspace, user), whether a person watches it, and whether it may start
// runs of its own.
type Origin struct {
	// Source names the starter: "connect:<connection>" for an outside
	// assistant, "bridge:<run>" for an orchestration tool of that run, ""
	// for a person in the window.
	Source string `json:"source,omitempty"`
	// Workspace and User bind the run's bridge ("" = the app's own).
	Workspace string `json:"workspace,omitempty"`
	User      string `json:"user,omitempty"`
	// Unattended runs have nobody watching: a tool that needs approval is
	// refused at once instead of waiting.
	Unattended bool `json:"unattended,omitempty"`
	// Depth is 0 for a run a person started; a run started by a tool is one
	// deeper than its starter.
	Depth int `json:"depth,omitempty"`
	// Folder is where the run works ("" = the current Local Folder): runs
	// an orchestration tool starts work where their starter works.
	Folder string `json:"folder,omitempty"`
	// Project is the project the run is for ("" = none): its bridge reads
	// and posts in that project's discussion channel.
	Project string `json:"project,omitempty"`
}

// MaxDepth bounds orchestration: a run of this depth or deeper was started
// by a tool and cannot start more (a fleet of fleets would fork without end).
const MaxDepth = 1

// OrchestrationTools start runs of their own.
var OrchestrationTools = []string{"spawn_fleet", "loop_run", "graph_run"}

// orchestratorRoles may be offered the orchestration tools.
var orchestratorRoles = []string{"Worker"}

// MayOrchestrate reports whether a run of role started from o may call the
// orchestration tools: only an orchestrating role, only in a run a person
// started and watches.
func MayOrchestrate(role Role, o Origin) bool {
	return slices.Contains(orchestratorRoles, role.Name) && o.Depth < MaxDepth && !o.Unattended
}

// Allowlist is a run's bridge allowlist: base, plus the orchestration
// tools when the run may orchestrate, minus them otherwise (whatever base
// holds).
func Allowlist(base []string, role Role, o Origin) []string {
	out := make([]string, 0, len(base)+len(OrchestrationTools))
	for _, n := range base {
		if !slices.Contains(OrchestrationTools, n) && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	if MayOrchestrate(role, o) {
		out = append(out, OrchestrationTools...)
	}
	return out
}

// RoleTask is a run of one pipeline role on a task, outside any chat (an
// agent card on the board), started by a tool rather than a person.
type RoleTask struct {
	Role string
	Task string
	// Model overrides the role's assigned model ("" = Pipeline Roles).
	Model  string
	Title  string // "" = the role and the task's first words
	Origin Origin
}

// StartRole starts a role run and returns it running. The role's model
// comes from Pipeline Roles; the folder is the current Local Folder.
func (s *Service) StartRole(ctx context.Context, t RoleTask) (Run, error) {
	if strings.TrimSpace(t.Task) == "" {
		return Run{}, errors.New("the task is empty: say what the run should do")
	}
	role, model, _, err := s.resolve(ctx, "", t.Role)
	if err != nil {
		return Run{}, err
	}
	if t.Model != "" {
		if !agentcli.IsCLIModel(t.Model) {
			return Run{}, fmt.Errorf("%s is not an External AI model; the pipeline here runs only cli:* models", t.Model)
		}
		model = t.Model
	}
	title := t.Title
	if title == "" {
		title = role.Name + " · " + firstWords(t.Task, 8)
	}
	return s.start(ctx, runSpec{title: title, model: model, role: role, origin: t.Origin, folder: t.Origin.Folder,
		turns: []agentcli.Turn{{Role: "user", Text: t.Task}}})
}

// CheckRoles reports, before anything starts, why runs of these roles in
// folder ("" = the current Local Folder) could not start (unknown role, no
// model, CLI turned off, no folder), so a graph fails at once rather than
// after its first stages ran.
func (s *Service) CheckRoles(ctx context.Context, folder string, roles ...string) error {
	for _, name := range roles {
		role, model, _, err := s.resolve(ctx, "", name)
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
		for _, c := range s.ExternalAI(ctx) {
			if c.Agent == m.Agent && !c.Enabled {
				return fmt.Errorf("%s is turned off: turn it on in the External AI tab", c.Name)
			}
		}
	}
	if folder != "" {
		if fi, err := os.Stat(folder); err != nil || !fi.IsDir() {
			return fmt.Errorf("the folder %s is no longer there", folder)
		}
		return nil
	}
	_, err := s.CurrentFolder(ctx)
	return err
}

// WaitRun waits until a run has ended or ctx is done, and returns the run
// as recorded then (still running when ctx ended first).
func (s *Service) WaitRun(ctx context.Context, id string) (Run, error) {
	select {
	case <-s.RunDone(id):
	case <-ctx.Done():
	}
	return s.GetRun(context.WithoutCancel(ctx), id)
}

// closedDone is what RunDone returns for a run that is not running.
var closedDone = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// RunDone returns a channel closed once the run has ended and is recorded
// (already closed for a run that is not running).
func (s *Service) RunDone(id string) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ar := s.active[id]; ar != nil {
		return ar.done
	}
	return closedDone
}

// RunOrigin returns who started a running run; false when it is not
// running.
func (s *Service) RunOrigin(id string) (Origin, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ar := s.active[id]; ar != nil {
		return ar.origin, true
	}
	return Origin{}, false
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		return strings.Join(f[:n], " ") + "…"
	}
	return strings.Join(f, " ")
}
