package orchestrate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/pipeline"
	"github.com/osfoundry/desktop/backend/roles"
	"github.com/osfoundry/desktop/backend/runs"
)

// FleetTask is one run of a fleet.
type FleetTask struct {
	Role string `json:"role"`
	Task string `json:"task"`
	// Model overrides the role's model; Folder the starter's folder.
	Model  string `json:"model,omitempty"`
	Folder string `json:"folder,omitempty"`
}

// Fleet is a set of runs that go in parallel, at most Concurrency at once
// (0 = all of them; never more than MaxFleet runs in a fleet, or MaxTasks
// when set: a person's fleet may be larger than a tool's).
type Fleet struct {
	Tasks       []FleetTask
	Concurrency int
	MaxTasks    int
	Title       string
	Limits      Limits
}

// StartFleet starts a fleet for owner and returns at once.
func (m *Manager) StartFleet(ctx context.Context, owner string, f Fleet, origin runs.Origin, until <-chan struct{}) (Status, error) {
	if len(f.Tasks) == 0 {
		return Status{}, errors.New("a fleet needs at least one task")
	}
	maxTasks := MaxFleet
	if f.MaxTasks > 0 {
		maxTasks = f.MaxTasks
	}
	if len(f.Tasks) > maxTasks {
		return Status{}, fmt.Errorf("a fleet has at most %d runs (asked for %d): split the work or run it in rounds", maxTasks, len(f.Tasks))
	}
	if f.Concurrency < 0 {
		return Status{}, errors.New("concurrency must be positive")
	}
	if f.Concurrency == 0 || f.Concurrency > len(f.Tasks) {
		f.Concurrency = len(f.Tasks)
	}
	steps := make([]Step, len(f.Tasks))
	models := make([]agentcli.Model, len(f.Tasks)) // each override parsed once, here
	var unset []string                             // roles without an override: checked here at once
	for i, t := range f.Tasks {
		role, err := roles.LookupRole(t.Role)
		if err != nil {
			return Status{}, fmt.Errorf("task %d: %w", i+1, err)
		}
		if strings.TrimSpace(t.Task) == "" {
			return Status{}, fmt.Errorf("task %d is empty: say what that run should do", i+1)
		}
		if models[i], err = checkModel(t.Model, role); err != nil {
			return Status{}, fmt.Errorf("task %d: %w", i+1, err)
		}
		steps[i] = Step{Stage: i + 1, Role: role.Name, Model: t.Model, Task: clipTask(t.Task), State: StateWaiting}
		if t.Model == "" {
			unset = append(unset, role.Name)
		}
	}
	if err := m.roles.CheckRoles(ctx, origin.Folder, unset...); err != nil {
		return Status{}, err
	}
	for i, t := range f.Tasks {
		if t.Folder != "" && t.Folder != origin.Folder {
			if err := m.checkChild(ctx, t.Folder, steps[i].Role, t.Model); err != nil {
				return Status{}, fmt.Errorf("task %d: %w", i+1, err)
			}
		}
	}
	j, err := m.launchWith(owner, KindFleet, "", steps, until, Status{Title: f.Title, Limits: f.Limits}, func(ctx context.Context, j *job) {
		sem := make(chan struct{}, f.Concurrency)
		var wg sync.WaitGroup
		for i, t := range f.Tasks {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
			}
			if ctx.Err() != nil {
				m.setStep(j, i, func(s *Step) { s.State = StateCancelled })
				continue
			}
			wg.Add(1)
			o := origin
			if t.Folder != "" {
				o.Folder = t.Folder
			}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				m.runStep(ctx, j, i, pipeline.RoleTask{Role: t.Role, Task: t.Task, Model: models[i], Origin: o,
					Title: fmt.Sprintf("%s · fleet run %d/%d", steps[i].Role, i+1, len(f.Tasks))})
			}()
		}
		wg.Wait()
		j.mu.Lock()
		byUser := len(j.byUser)
		j.mu.Unlock()
		j.update(func(s *Status) {
			done, cancelled := 0, 0
			for _, st := range s.Steps {
				switch {
				case st.State == StateDone:
					done++
				case st.State == StateCancelled && st.Error == "cancelled by you":
					cancelled++
				}
			}
			s.State = StateDone
			if cancelled > 0 && byUser > 0 {
				s.Note = fmt.Sprintf("%d of %d runs cancelled by you", cancelled, len(s.Steps))
			}
			if done+cancelled < len(s.Steps) || done == 0 {
				s.State = StateFailed
				s.Error = fmt.Sprintf("%d of %d runs did not finish", len(s.Steps)-done, len(s.Steps))
			}
		})
	})
	if err != nil {
		return Status{}, err
	}
	return j.status(), nil
}

// Loop repeats one role run until its answer says it is done (its last
// line starts with Marker) or Max runs went.
type Loop struct {
	Role   string
	Task   string
	Max    int    // 0 = 3; at most MaxLoop (or Cap)
	Marker string // "" = DONE
	// Until is a stop condition in words: each round is told it and ends
	// its answer with Marker once it holds. Count, instead, runs exactly
	// that many rounds. A tool's loop has neither (the marker alone).
	Until string
	Count int
	// Cap raises MaxLoop for a person's loop.
	Cap    int
	Model  string
	Title  string
	Limits Limits
}

// StartLoop starts a loop for owner and returns at once.
func (m *Manager) StartLoop(ctx context.Context, owner string, l Loop, origin runs.Origin, until <-chan struct{}) (Status, error) {
	if strings.TrimSpace(l.Task) == "" {
		return Status{}, errors.New("task is required: say what each round should work towards")
	}
	maxRounds := MaxLoop
	if l.Cap > 0 {
		maxRounds = l.Cap
	}
	if l.Count < 0 {
		return Status{}, fmt.Errorf("count must be positive (got %d)", l.Count)
	}
	if l.Count > 0 && l.Max == 0 {
		l.Max = l.Count
	}
	if l.Max == 0 {
		l.Max = 3
	}
	if l.Max < 1 || l.Max > maxRounds {
		return Status{}, fmt.Errorf("max must be between 1 and %d (got %d)", maxRounds, l.Max)
	}
	if l.Count > l.Max {
		return Status{}, fmt.Errorf("count %d is more than the most iterations allowed (%d)", l.Count, l.Max)
	}
	if l.Marker = strings.TrimSpace(l.Marker); l.Marker == "" {
		l.Marker = "DONE"
	}
	role, err := roles.LookupRole(l.Role)
	if err != nil {
		return Status{}, err
	}
	model, err := checkModel(l.Model, role)
	if err != nil {
		return Status{}, err
	}
	if err := m.checkChild(ctx, origin.Folder, role.Name, l.Model); err != nil {
		return Status{}, err
	}
	j, err := m.launchWith(owner, KindLoop, "", nil, until, Status{Title: l.Title, Limits: l.Limits}, func(ctx context.Context, j *job) {
		prev := ""
		for round := 1; round <= l.Max; round++ {
			j.update(func(s *Status) {
				s.Steps = append(s.Steps, Step{Stage: round, ID: fmt.Sprint(round), Role: role.Name, Model: l.Model, Task: clipTask(l.Task), State: StateWaiting})
			})
			st := m.runStep(ctx, j, round-1, pipeline.RoleTask{Role: role.Name, Model: model, Task: loopPrompt(l, round, prev), Origin: origin,
				Title: fmt.Sprintf("%s · loop round %d/%d", role.Name, round, l.Max)})
			prev = st.Answer
			if st.State != StateDone {
				j.update(func(s *Status) {
					s.State, s.Answer = StateFailed, prev
					s.Error = fmt.Sprintf("round %d did not finish (%s)", round, st.State)
				})
				return
			}
			// A condition (or the tool's marker) ends the loop when an
			// answer says it holds; a count ends it at that iteration;
			// with both, whichever comes first.
			if (l.Until != "" || l.Count == 0) && SaysDone(st.Answer, l.Marker) || l.Count > 0 && round == l.Count {
				j.update(func(s *Status) { s.State, s.Answer = StateDone, prev })
				return
			}
		}
		j.update(func(s *Status) {
			s.State, s.Answer = StateStopped, prev
			s.Note = fmt.Sprintf("stopped after %d rounds without an answer ending in %s", l.Max, l.Marker)
			if l.Until != "" {
				s.Note = fmt.Sprintf("stopped after %d iterations: the condition %q was not met", l.Max, strings.TrimSpace(l.Until))
			}
		})
	})
	if err != nil {
		return Status{}, err
	}
	return j.status(), nil
}

func loopPrompt(l Loop, round int, prev string) string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(l.Task))
	if round > 1 {
		of, limit := "at most ", l.Max
		if l.Count > 0 {
			limit = l.Count
			if l.Until == "" {
				of = ""
			}
		}
		fmt.Fprintf(&b, "\n\nThis is round %d of %s%d. Your previous round's answer:\n%s\n\nContinue from there.", round, of, limit, prev)
	}
	switch {
	case l.Until != "":
		fmt.Fprintf(&b, "\n\nStop condition: %s\nWhen it holds, end your answer with a line that says %s. Otherwise end with what is left to do; you will be run again with your answer.", strings.TrimSpace(l.Until), l.Marker)
	case l.Count > 0:
		if round < l.Count {
			b.WriteString("\n\nEnd with what is left to do; you will be run again with your answer.")
		}
	default:
		fmt.Fprintf(&b, "\n\nWhen the task is complete, end your answer with a line that says %s. Otherwise end with what is left to do; you will be run again with your answer.", l.Marker)
	}
	return b.String()
}

// SaysDone reports whether an answer's last non-empty line starts with
// marker as a word (case-insensitive, markdown emphasis ignored): "DONE",
// "**Done.**", "DONE — tests pass". A marker inside a sentence does not
// count ("not done yet").
func SaysDone(answer, marker string) bool {
	lines := strings.Split(strings.TrimSpace(answer), "\n")
	last := strings.Trim(lines[len(lines)-1], " \t*_`#>")
	if len(last) < len(marker) || !strings.EqualFold(last[:len(marker)], marker) {
		return false
	}
	rest := []rune(last[len(marker):])
	return len(rest) == 0 || !unicode.IsLetter(rest[0]) && !unicode.IsDigit(rest[0])
}

// StartRun starts one role run for owner (request_session_run) and
// returns once the run has started (or is waiting for a free slot, or
// ctx ended).
func (m *Manager) StartRun(ctx context.Context, owner string, t pipeline.RoleTask, until <-chan struct{}) (Status, error) {
	role, err := roles.LookupRole(t.Role)
	if err != nil {
		return Status{}, err
	}
	if strings.TrimSpace(t.Task) == "" {
		return Status{}, errors.New("task is required: say what the run should do")
	}
	if err := m.roles.CheckRoles(ctx, t.Origin.Folder, role.Name); err != nil {
		return Status{}, err
	}
	t.Role = role.Name
	j, err := m.launch(owner, KindRun, "", []Step{{Stage: 1, Role: role.Name, State: StateWaiting}}, until, func(ctx context.Context, j *job) {
		st := m.runStep(ctx, j, 0, t)
		j.update(func(s *Status) { s.State, s.Answer, s.Error = st.State, st.Answer, st.Error })
	})
	if err != nil {
		return Status{}, err
	}
	// A free slot starts the run at once; when every slot is taken the
	// caller gets the job waiting rather than a call that hangs.
	wctx, cancel := context.WithTimeout(ctx, startWait)
	defer cancel()
	return j.waitFor(wctx, func(s Status) bool { return s.Steps[0].RunID != "" }), nil
}

// startWait bounds how long StartRun waits for its run to start.
const startWait = 5 * time.Second
