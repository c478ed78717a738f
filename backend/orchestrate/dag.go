package orchestrate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/pipeline"
	"github.com/osfoundry/desktop/backend/roles"
	"github.com/osfoundry/desktop/backend/runs"
)

// DAGStep is one step of a graph a person writes: an id, a role (and
// optionally a model and folder), its task ("prompt" in JSON and job
// files), and the steps it waits for.
type DAGStep struct {
	ID        string   `json:"id"`
	Role      string   `json:"role"`
	Model     string   `json:"model,omitempty"`
	Task      string   `json:"prompt"`
	Folder    string   `json:"folder,omitempty"`
	DependsOn []string `json:"dependsOn,omitempty"`
}

// UnmarshalJSON also takes depends_on, as the file format spells it.
func (s *DAGStep) UnmarshalJSON(b []byte) error {
	type plain DAGStep
	var v struct {
		plain
		Snake []string `json:"depends_on"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*s = DAGStep(v.plain)
	if len(s.DependsOn) == 0 {
		s.DependsOn = v.Snake
	}
	return nil
}

// DAG is a graph of steps with dependencies: a step starts once every step
// it depends on is done and is given their answers; a step whose
// dependency failed or was cancelled is skipped.
type DAG struct {
	Title  string
	Steps  []DAGStep
	Limits Limits
}

// Validate checks ids, roles, models and dependencies and returns the
// steps in an order where every step comes after its dependencies. A
// cycle is reported with its path ("a → b → a").
func (d DAG) Validate() ([]int, error) {
	order, _, err := d.validate()
	return order, err
}

// validate is Validate that also returns each step's model override,
// parsed here once ("" and the zero Model: the role's assigned model).
func (d DAG) validate() ([]int, []agentcli.Model, error) {
	if len(d.Steps) == 0 {
		return nil, nil, errors.New("a graph needs at least one step")
	}
	if len(d.Steps) > MaxGraphSteps {
		return nil, nil, fmt.Errorf("a graph has at most %d steps (got %d)", MaxGraphSteps, len(d.Steps))
	}
	models := make([]agentcli.Model, len(d.Steps))
	index := map[string]int{}
	for i, s := range d.Steps {
		id := strings.TrimSpace(s.ID)
		if id == "" {
			return nil, nil, fmt.Errorf("step %d has no id: give every step an id its dependents can name", i+1)
		}
		if _, dup := index[id]; dup {
			return nil, nil, fmt.Errorf("two steps have the id %q: ids must be unique", id)
		}
		index[id] = i
		role, err := roles.LookupRole(s.Role)
		if err != nil {
			return nil, nil, fmt.Errorf("step %q: %w", id, err)
		}
		if models[i], err = checkModel(s.Model, role); err != nil {
			return nil, nil, fmt.Errorf("step %q: %w", id, err)
		}
		if strings.TrimSpace(s.Task) == "" {
			return nil, nil, fmt.Errorf("step %q has no prompt: say what that step should do", id)
		}
	}
	for _, s := range d.Steps {
		for _, dep := range s.DependsOn {
			if _, ok := index[dep]; !ok {
				return nil, nil, fmt.Errorf("step %q depends on %q, which is not a step of this graph", s.ID, dep)
			}
			if dep == s.ID {
				return nil, nil, fmt.Errorf("step %q depends on itself", s.ID)
			}
		}
	}
	// Depth-first search; the grey path is the cycle when one is found.
	const white, grey, black = 0, 1, 2
	color := make([]int, len(d.Steps))
	var order []int
	var path []string
	var visit func(i int) error
	visit = func(i int) error {
		color[i] = grey
		path = append(path, d.Steps[i].ID)
		for _, dep := range d.Steps[i].DependsOn {
			k := index[dep]
			switch color[k] {
			case grey:
				from := slices.Index(path, dep)
				cycle := append(slices.Clone(path[from:]), dep)
				return fmt.Errorf("the graph has a cycle: %s; a step cannot wait for itself", strings.Join(cycle, " → "))
			case white:
				if err := visit(k); err != nil {
					return err
				}
			}
		}
		path = path[:len(path)-1]
		color[i] = black
		order = append(order, i)
		return nil
	}
	for i := range d.Steps {
		if color[i] == white {
			if err := visit(i); err != nil {
				return nil, nil, err
			}
		}
	}
	return order, models, nil
}

// StartDAG validates d, checks every role can run in its folder, and
// starts it for owner; it returns at once.
func (m *Manager) StartDAG(ctx context.Context, owner string, d DAG, origin runs.Origin) (Status, error) {
	_, models, err := d.validate()
	if err != nil {
		return Status{}, err
	}
	steps := make([]Step, len(d.Steps))
	for i, s := range d.Steps {
		role, _ := roles.LookupRole(s.Role)
		folder := origin.Folder
		if s.Folder != "" {
			folder = s.Folder
		}
		if err := m.checkChild(ctx, folder, role.Name, s.Model); err != nil {
			return Status{}, fmt.Errorf("step %q: %w", s.ID, err)
		}
		steps[i] = Step{Stage: i + 1, ID: strings.TrimSpace(s.ID), Role: role.Name, Model: s.Model, Task: clipTask(s.Task),
			DependsOn: s.DependsOn, State: StateWaiting}
	}
	j, err := m.launchWith(owner, KindGraph, "", steps, nil, Status{Title: d.Title, Limits: d.Limits}, func(ctx context.Context, j *job) {
		m.runDAG(ctx, j, d, models, origin)
	})
	if err != nil {
		return Status{}, err
	}
	return j.status(), nil
}

func (m *Manager) runDAG(ctx context.Context, j *job, d DAG, models []agentcli.Model, origin runs.Origin) {
	n := len(d.Steps)
	index := map[string]int{}
	for i, s := range d.Steps {
		index[strings.TrimSpace(s.ID)] = i
	}
	conc := d.Limits.Concurrency
	if conc <= 0 || conc > n {
		conc = n
	}
	sem := make(chan struct{}, conc)
	ended := make([]chan struct{}, n)
	for i := range ended {
		ended[i] = make(chan struct{})
	}
	var wg sync.WaitGroup
	for i, s := range d.Steps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(ended[i])
			var earlier []Step
			for _, dep := range s.DependsOn {
				k := index[dep]
				<-ended[k]
				st := j.status().Steps[k]
				if st.State != StateDone {
					m.setStep(j, i, func(x *Step) {
						x.State, x.Error, x.EndedAt = StateSkipped, fmt.Sprintf("skipped: step %q did not finish (%s)", dep, st.State), time.Now().UnixMilli()
					})
					return
				}
				earlier = append(earlier, st)
			}
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
			}
			if ctx.Err() != nil {
				m.setStep(j, i, func(x *Step) { x.State, x.EndedAt = StateCancelled, time.Now().UnixMilli() })
				return
			}
			defer func() { <-sem }()
			o := origin
			if s.Folder != "" {
				o.Folder = s.Folder
			}
			m.runStep(ctx, j, i, pipeline.RoleTask{Role: s.Role, Model: models[i], Task: dagPrompt(s, earlier), Origin: o,
				Title: fmt.Sprintf("%s · graph step %s", j.status().Steps[i].Role, s.ID)})
		}()
	}
	wg.Wait()
	j.update(func(st *Status) {
		var bad, leaves []string
		for i, s := range st.Steps {
			if s.State != StateDone {
				bad = append(bad, fmt.Sprintf("%s (%s)", s.ID, s.State))
			}
			if !slices.ContainsFunc(d.Steps, func(o DAGStep) bool { return slices.Contains(o.DependsOn, d.Steps[i].ID) }) {
				leaves = append(leaves, s.Answer)
			}
		}
		st.State, st.Answer = StateDone, strings.Join(leaves, "\n\n")
		if len(bad) > 0 {
			st.State, st.Error = StateFailed, "steps that did not finish: "+strings.Join(bad, ", ")
		}
	})
}

// dagPrompt is a step's prompt with the answers of the steps it waited for.
func dagPrompt(s DAGStep, earlier []Step) string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(s.Task))
	if len(earlier) > 0 {
		b.WriteString("\n\nResults of the steps this one builds on:")
		for _, e := range earlier {
			a := e.Answer
			if r := []rune(a); len(r) > earlierClip {
				a = string(r[:earlierClip]) + "\n…(cut)"
			}
			fmt.Fprintf(&b, "\n\n## Step %s — %s\n%s", e.ID, e.Role, a)
		}
	}
	return b.String()
}

// checkChild checks a child can start: its role's assigned model (none
// to check when the child names its own model) and its folder.
func (m *Manager) checkChild(ctx context.Context, folder, role, model string) error {
	if model != "" {
		return m.roles.CheckRoles(ctx, folder)
	}
	return m.roles.CheckRoles(ctx, folder, role)
}

// checkModel parses a model override, the one parse of the id on its way
// to the CLI, and refuses one that is not a CLI model or cannot run the
// role ("" keeps the role's assigned model: the zero Model).
func checkModel(model string, role roles.Role) (agentcli.Model, error) {
	if model == "" {
		return agentcli.Model{}, nil
	}
	if !agentcli.IsCLIModel(model) {
		return agentcli.Model{}, fmt.Errorf("unknown model %q: use cli:claude:agent, cli:claude or cli:codex:agent", model)
	}
	mm, err := agentcli.ParseModel(model)
	if err != nil {
		return agentcli.Model{}, err
	}
	return mm, mm.CheckRole(role.Name, role.NeedsTools)
}

// clipTask keeps a child's task short enough for a status line.
func clipTask(s string) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > 500 {
		return string(r[:500]) + "…"
	}
	return s
}

// cancelWait bounds how long CancelChild waits for the child to record
// its end (a CLI killed by its process group ends in milliseconds).
const cancelWait = 30 * time.Second
