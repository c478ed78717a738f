package orchestrate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/osfoundry/desktop/backend/pipeline"
	"github.com/osfoundry/desktop/backend/roles"
	"github.com/osfoundry/desktop/backend/runs"
)

// StepSpec is one role step of a graph.
type StepSpec struct {
	Role string `json:"role"`
	// Task is this step's own part; "" = the graph's task as it stands.
	Task string `json:"task,omitempty"`
}

// Stage is a set of steps that run in parallel (a fan-out); stages run
// in sequence, each seeing the answers of the stages before it. In JSON a
// stage is a role name, a step object, or an array of either.
type Stage []StepSpec

// UnmarshalJSON reads the three shapes a model may write.
func (s *Stage) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		var items []json.RawMessage
		if err := json.Unmarshal(b, &items); err != nil {
			return err
		}
		out := Stage{}
		for _, it := range items {
			st, err := readStep(it)
			if err != nil {
				return err
			}
			out = append(out, st)
		}
		*s = out
		return nil
	}
	st, err := readStep(b)
	if err != nil {
		return err
	}
	*s = Stage{st}
	return nil
}

func readStep(b json.RawMessage) (StepSpec, error) {
	var name string
	if json.Unmarshal(b, &name) == nil {
		return StepSpec{Role: name}, nil
	}
	var st StepSpec
	if err := json.Unmarshal(b, &st); err != nil {
		return StepSpec{}, errors.New(`a stage is a role name ("Researcher"), a step {"role":…,"task":…}, or an array of those`)
	}
	return st, nil
}

// Graph is a small graph of role steps.
type Graph struct {
	Task   string  `json:"task"`
	Stages []Stage `json:"stages,omitempty"`
}

// DefaultStages is the graph used when none is given: research, do, review.
func DefaultStages() []Stage {
	return []Stage{{{Role: "Researcher"}}, {{Role: "Worker"}}, {{Role: "Reviewer"}}}
}

// Validate checks the graph's shape and fills the default stages.
func (g *Graph) Validate() error {
	if strings.TrimSpace(g.Task) == "" {
		return errors.New("task is required: say what the graph should achieve")
	}
	if len(g.Stages) == 0 {
		g.Stages = DefaultStages()
	}
	if len(g.Stages) > MaxStages {
		return fmt.Errorf("a graph has at most %d stages (got %d)", MaxStages, len(g.Stages))
	}
	n := 0
	for i, st := range g.Stages {
		if len(st) == 0 {
			return fmt.Errorf("stage %d is empty: give it at least one role", i+1)
		}
		if len(st) > MaxFleet {
			return fmt.Errorf("stage %d fans out to %d steps; at most %d run side by side", i+1, len(st), MaxFleet)
		}
		for _, sp := range st {
			if _, err := roles.LookupRole(sp.Role); err != nil {
				return fmt.Errorf("stage %d: %w", i+1, err)
			}
		}
		n += len(st)
	}
	if n > MaxGraphSteps {
		return fmt.Errorf("a graph has at most %d steps (got %d)", MaxGraphSteps, n)
	}
	return nil
}

func (g Graph) roles() []string {
	var out []string
	for _, st := range g.Stages {
		for _, sp := range st {
			out = append(out, sp.Role)
		}
	}
	return out
}

// StartGraph validates g, checks every role can run, and starts the graph
// for owner; the runs are started from origin. It returns at once.
func (m *Manager) StartGraph(ctx context.Context, owner string, g Graph, origin runs.Origin, until <-chan struct{}) (Status, error) {
	if err := g.Validate(); err != nil {
		return Status{}, err
	}
	if err := m.roles.CheckRoles(ctx, origin.Folder, g.roles()...); err != nil {
		return Status{}, err
	}
	var steps []Step
	for si, st := range g.Stages {
		for _, sp := range st {
			role, _ := roles.LookupRole(sp.Role)
			steps = append(steps, Step{Stage: si + 1, Role: role.Name, State: StateWaiting})
		}
	}
	j, err := m.launch(owner, KindGraph, "", steps, until, func(ctx context.Context, j *job) {
		m.runGraph(ctx, j, g, origin)
	})
	if err != nil {
		return Status{}, err
	}
	return j.status(), nil
}

func (m *Manager) runGraph(ctx context.Context, j *job, g Graph, origin runs.Origin) {
	first := 0
	for si, st := range g.Stages {
		all := j.status().Steps
		earlier := all[:first]
		var wg sync.WaitGroup
		for k, sp := range st {
			i := first + k
			t := pipeline.RoleTask{Role: sp.Role, Task: stepPrompt(g, si, sp, earlier), Origin: origin,
				Title: fmt.Sprintf("%s · graph step %d/%d", all[i].Role, i+1, len(all))}
			wg.Add(1)
			go func() {
				defer wg.Done()
				m.runStep(ctx, j, i, t)
			}()
		}
		wg.Wait()
		first += len(st)
		var failed []string
		for _, s := range j.status().Steps[first-len(st) : first] {
			if s.State != StateDone {
				failed = append(failed, fmt.Sprintf("%s (%s)", s.Role, s.State))
			}
		}
		if len(failed) > 0 || ctx.Err() != nil {
			j.update(func(s *Status) {
				for i := first; i < len(s.Steps); i++ {
					s.Steps[i].State = StateSkipped
				}
				s.State = StateFailed
				s.Error = fmt.Sprintf("stage %d did not finish: %s; later stages were skipped", si+1, strings.Join(failed, ", "))
			})
			return
		}
	}
	j.update(func(s *Status) {
		var parts []string
		for _, st := range s.Steps {
			if st.Stage == len(g.Stages) {
				parts = append(parts, st.Answer)
			}
		}
		s.State, s.Answer = StateDone, strings.Join(parts, "\n\n")
	})
}

// earlierClip bounds each earlier answer inside a step's prompt.
const earlierClip = 4000

// stepPrompt is what a graph step is asked: the graph's task, its own
// part, and the answers of the stages before it.
func stepPrompt(g Graph, si int, sp StepSpec, earlier []Step) string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(g.Task))
	fmt.Fprintf(&b, "\n\nYou are the %s in stage %d of %d of a graph run.", sp.Role, si+1, len(g.Stages))
	if sp.Task != "" {
		b.WriteString(" Your part: " + strings.TrimSpace(sp.Task))
	}
	if len(earlier) > 0 {
		b.WriteString("\n\nResults of the earlier stages:")
		for _, s := range earlier {
			a := s.Answer
			if r := []rune(a); len(r) > earlierClip {
				a = string(r[:earlierClip]) + "\n…(cut)"
			}
			fmt.Fprintf(&b, "\n\n## Stage %d — %s (run %s)\n%s", s.Stage, s.Role, s.RunID, a)
		}
	}
	return b.String()
}
