package board

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/orchestrate"
	"github.com/osfoundry/desktop/backend/pipeline"
)

// Jobs is what the Team and Loop cards need of the orchestrator
// (*orchestrate.Manager): every job, whoever started it (a person, a
// Worker run's spawn_fleet, a connected assistant), and cancelling one.
type Jobs interface {
	AllJobs() ([]orchestrate.Status, error)
	CancelAny(id string) (orchestrate.Status, error)
}

var _ Jobs = (*orchestrate.Manager)(nil)

// Teams offers a person's fleets and graphs as Team cards and loops as
// Loop cards. A card's column is its children's combined state: a child
// run waiting for the user makes the card Needs you (childStates gives
// each run's own column, as the pipeline's cards say it).
type Teams struct {
	jobs        Jobs
	childStates func() map[string]string

	mu       sync.Mutex
	children map[string]string // run id → job id, as of the last Cards
}

// NewTeams offers jobs' cards; childStates gives each run's own column
// (the app registers the Board's Changed with the orchestrator's OnChange).
func NewTeams(jobs Jobs, childStates func() map[string]string) *Teams {
	if childStates == nil {
		childStates = func() map[string]string { return nil }
	}
	return &Teams{jobs: jobs, childStates: childStates, children: map[string]string{}}
}

// ChildRuns lists the pipeline runs that are children of a job shown
// here, so the pipeline does not show them as Agent cards of their own.
func (t *Teams) ChildRuns() map[string]bool {
	t.refresh()
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make(map[string]bool, len(t.children))
	for id := range t.children {
		out[id] = true
	}
	return out
}

func (t *Teams) list() []orchestrate.Status {
	jobs, err := t.jobs.AllJobs()
	if err != nil {
		jobs = nil // the board must never go blank on a hiccup
	}
	var out []orchestrate.Status
	for _, j := range jobs {
		if j.Kind != orchestrate.KindRun {
			out = append(out, j)
		}
	}
	kids := map[string]string{}
	for _, j := range out {
		for _, s := range j.Steps {
			if s.RunID != "" {
				kids[s.RunID] = j.ID
			}
		}
	}
	t.mu.Lock()
	t.children = kids
	t.mu.Unlock()
	return out
}

func (t *Teams) refresh() { t.list() }

// Cards lists a card per job.
func (t *Teams) Cards() []Card {
	jobs := t.list()
	states := t.childStates()
	out := make([]Card, 0, len(jobs))
	for _, j := range jobs {
		out = append(out, jobCard(j, states))
	}
	return out
}

func jobCard(j orchestrate.Status, states map[string]string) Card {
	kind := KindTeam
	if j.Kind == orchestrate.KindLoop {
		kind = KindLoop
	}
	state, why, done := combine(j, states)
	title := j.Title
	if title == "" {
		title = fmt.Sprintf("%s of %d", strings.ToUpper(j.Kind[:1])+j.Kind[1:], len(j.Steps))
	}
	updated := j.EndedAt
	if updated == 0 {
		updated = j.StartedAt
	}
	reason := "the combined state of its runs"
	if j.StartedBy != "" {
		reason += "; started by " + j.StartedBy
	}
	return Card{ID: j.ID, Kind: kind, Title: title, State: state, Why: why, Reason: reason,
		StartedAt: j.StartedAt, UpdatedAt: updated, Link: "/orchestration?job=" + j.ID,
		Children: len(j.Steps), ChildrenDone: done}
}

// combine is a job's column by the board's priority over its children:
// Needs you, then Running, then Paused; an ended job is Done, or Failed
// when a limit stopped it or a child failed.
func combine(j orchestrate.Status, states map[string]string) (state, why string, done int) {
	var needs, running, paused int
	for _, s := range j.Steps {
		switch s.State {
		case orchestrate.StateDone:
			done++
		case orchestrate.StateWaiting:
			running++
		case orchestrate.StateRunning:
			switch states[s.RunID] {
			case NeedsYou:
				needs++
			case Paused:
				paused++
			default:
				running++
			}
		}
	}
	if !j.Ended() {
		parts := []string{fmt.Sprintf("%d of %d done", done, len(j.Steps))}
		if j.Kind == orchestrate.KindLoop {
			parts[0] = fmt.Sprintf("iteration %d · %d done", len(j.Steps), done)
		}
		for _, p := range []struct {
			n    int
			what string
		}{{needs, "needs you"}, {running, "running"}, {paused, "paused"}} {
			if p.n > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", p.n, p.what))
			}
		}
		why = strings.Join(parts, " · ")
		switch {
		case needs > 0:
			return NeedsYou, why, done
		case running > 0:
			return Running, why, done
		case paused > 0:
			return Paused, why, done
		}
		return Running, why, done
	}
	switch j.State {
	case orchestrate.StateDone, orchestrate.StateCancelled:
		why = firstLine(j.Answer)
		if j.State == orchestrate.StateCancelled {
			why = "cancelled"
		}
		if j.Note != "" {
			why = j.Note
		}
		return Done, why, done
	}
	why = j.Error
	if why == "" {
		why = j.Note
	}
	return Failed, why, done
}

// Summary describes a job for its Done summary: each child and its end.
func (t *Teams) Summary(id string) (Summary, error) {
	for _, j := range t.list() {
		if j.ID != id {
			continue
		}
		state, _, _ := combine(j, t.childStates())
		s := Summary{Title: j.Title, State: state, Command: "orchestration " + j.Kind, Started: time.UnixMilli(j.StartedAt)}
		for _, c := range j.Steps {
			line := fmt.Sprintf("%s %s (%s): %s", c.Role, c.ID, c.State, firstLine(c.Answer))
			s.Events = append(s.Events, Event{At: time.UnixMilli(c.EndedAt), Text: line})
		}
		s.LastScreen = lastLines(j.Answer)
		return s, nil
	}
	return Summary{}, ErrNoCard
}

// End cancels a job still going (a finished one has nothing to end).
func (t *Teams) End(id string) error {
	_, err := t.jobs.CancelAny(id)
	if errors.Is(err, orchestrate.ErrNoJob) {
		return ErrNoCard
	}
	return err
}

// RunStates reads each pipeline agent run's own column (a run waiting for
// an approval reads Needs you) for NewTeams.
func RunStates(svc *pipeline.Service) func() map[string]string {
	return func() map[string]string {
		out := map[string]string{}
		for _, c := range svc.Cards() {
			if c.Kind == pipeline.KindAgent {
				out[c.ID] = c.State
			}
		}
		return out
	}
}
