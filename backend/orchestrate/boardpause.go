package orchestrate

import (
	"errors"

	"github.com/osfoundry/desktop/backend/board"
)

// RunPauser freezes and continues one run: the pipeline's own board source
// (chat.BoardSource), which already says board.ErrNoPause where this
// system cannot freeze a process.
type RunPauser interface {
	Pause(runID string) error
	Resume(runID string) error
}

var _ board.Pauser = (*BoardSource)(nil)

// PauseWith lets Team and Loop cards be paused like an agent's: Pause
// freezes every child run going, so the job starts nothing new (its loop
// or fleet waits on them), and a paused card can be dropped on Done, which
// cancels the job with a summary. Without it the cards offer no Pause.
func (t *BoardSource) PauseWith(p RunPauser) *BoardSource {
	t.mu.Lock()
	t.pauser = p
	t.mu.Unlock()
	return t
}

func (t *BoardSource) runPauser() RunPauser {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.pauser
}

// Pause freezes the job's child runs that are going (not those paused already).
func (t *BoardSource) Pause(id string) error { return t.eachChild(id, true) }

// Resume continues the job's paused child runs.
func (t *BoardSource) Resume(id string) error { return t.eachChild(id, false) }

func (t *BoardSource) eachChild(id string, pause bool) error {
	p := t.runPauser()
	if p == nil {
		return board.ErrNoPause
	}
	for _, j := range t.list() {
		if j.ID != id {
			continue
		}
		if j.Ended() {
			return board.ErrEnded
		}
		states := t.childStates()
		var errs []error
		for _, s := range j.Steps {
			if s.State != StateRunning || s.RunID == "" || (states[s.RunID] == board.Paused) == pause {
				continue
			}
			var err error
			if pause {
				err = p.Pause(s.RunID)
			} else {
				err = p.Resume(s.RunID)
			}
			if errors.Is(err, board.ErrNoPause) {
				return err
			}
			errs = append(errs, err)
		}
		return errors.Join(errs...)
	}
	return board.ErrNoCard
}
