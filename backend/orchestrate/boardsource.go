package orchestrate

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/board"
)

// Jobs is what the Team and Loop cards need of the orchestrator
// (*Manager): every job, whoever started it (a person, a
// Worker run's spawn_fleet, a connected assistant), and cancelling one.
type Jobs interface {
	AllJobs() ([]Status, error)
	CancelAny(id string) (Status, error)
	OnChange(fn func())
}

var (
	_ Jobs          = (*Manager)(nil)
	_ board.Watched = (*BoardSource)(nil)
)

// BoardSource offers a person's fleets and graphs as Team cards and loops as
// Loop cards. A card's column is its children's combined state: a child
// run waiting for the user makes the card Needs you (childStates gives
// each run's own column, as the pipeline's cards say it).
type BoardSource struct {
	jobs        Jobs
	childStates func() map[string]string

	mu       sync.Mutex
	children map[string]string // run id → job id, as of the last Cards
	pauser   RunPauser         // PauseWith; nil: the cards offer no Pause
}

// NewBoardSource offers jobs' cards; childStates gives each run's own column
// (chat.Service.RunStates; nil: none).
func NewBoardSource(jobs Jobs, childStates func() map[string]string) *BoardSource {
	if childStates == nil {
		childStates = func() map[string]string { return nil }
	}
	return &BoardSource{jobs: jobs, childStates: childStates, children: map[string]string{}}
}

// ChildRuns lists the pipeline runs that are children of a job shown
// here, so the pipeline does not show them as Agent cards of their own.
func (t *BoardSource) ChildRuns() map[string]bool {
	t.refresh()
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make(map[string]bool, len(t.children))
	for id := range t.children {
		out[id] = true
	}
	return out
}

func (t *BoardSource) list() []Status {
	jobs, err := t.jobs.AllJobs()
	if err != nil {
		jobs = nil // the board must never go blank on a hiccup
	}
	var out []Status
	for _, j := range jobs {
		if j.Kind != KindRun {
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

func (t *BoardSource) refresh() { t.list() }

// Watch calls changed whenever a job may have changed.
func (t *BoardSource) Watch(changed func()) { t.jobs.OnChange(changed) }

// Cards lists a card per job.
func (t *BoardSource) Cards() []board.Card {
	jobs := t.list()
	states := t.childStates()
	canPause := t.runPauser() != nil
	out := make([]board.Card, 0, len(jobs))
	for _, j := range jobs {
		c := jobCard(j, states)
		c.CanPause = canPause && !j.Ended()
		out = append(out, c)
	}
	return out
}

func jobCard(j Status, states map[string]string) board.Card {
	kind := board.KindTeam
	if j.Kind == board.KindLoop {
		kind = board.KindLoop
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
	return board.Card{ID: j.ID, Kind: kind, Title: title, State: state, Why: why, Reason: reason,
		StartedAt: j.StartedAt, UpdatedAt: updated, Link: "/orchestration?job=" + j.ID,
		Children: len(j.Steps), ChildrenDone: done, Cost: &j.Cost}
}

// combine is a job's column by the board's priority over its children:
// Needs you, then board.Running, then board.Paused; an ended job is board.Done, or board.Failed
// when a limit stopped it or a child failed.
func combine(j Status, states map[string]string) (state, why string, done int) {
	var needs, running, paused int
	for _, s := range j.Steps {
		switch s.State {
		case StateDone:
			done++
		case StateWaiting:
			running++
		case StateRunning:
			switch states[s.RunID] {
			case board.NeedsYou:
				needs++
			case board.Paused:
				paused++
			default:
				running++
			}
		}
	}
	if !j.Ended() {
		parts := []string{fmt.Sprintf("%d of %d done", done, len(j.Steps))}
		if j.Kind == board.KindLoop {
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
			return board.NeedsYou, why, done
		case running > 0:
			return board.Running, why, done
		case paused > 0:
			return board.Paused, why, done
		}
		return board.Running, why, done
	}
	switch j.State {
	case StateDone, StateCancelled:
		why = board.FirstLine(j.Answer)
		if j.State == StateCancelled {
			why = "cancelled"
		}
		if j.Note != "" {
			why = j.Note
		}
		return board.Done, why, done
	}
	why = j.Error
	if why == "" {
		why = j.Note
	}
	return board.Failed, why, done
}

// Summary describes a job for its board.Done summary: each child and its end.
func (t *BoardSource) Summary(id string) (board.Summary, error) {
	for _, j := range t.list() {
		if j.ID != id {
			continue
		}
		state, _, _ := combine(j, t.childStates())
		s := board.Summary{Title: j.Title, State: state, Command: "orchestration " + j.Kind, Started: time.UnixMilli(j.StartedAt)}
		for _, c := range j.Steps {
			line := fmt.Sprintf("%s %s (%s): %s", c.Role, c.ID, c.State, board.FirstLine(c.Answer))
			s.Events = append(s.Events, board.Event{At: time.UnixMilli(c.EndedAt), Text: line})
		}
		s.LastScreen = board.LastLines(j.Answer)
		return s, nil
	}
	return board.Summary{}, board.ErrNoCard
}

// End cancels a job still going (a finished one has nothing to end).
func (t *BoardSource) End(id string) error {
	_, err := t.jobs.CancelAny(id)
	if errors.Is(err, ErrNoJob) {
		return board.ErrNoCard
	}
	return err
}
