package orchestrate

import (
	"context"
	"crypto/rand"
	"encoding/hex"

	"github.com/osfoundry/desktop/backend/pipeline"
)

// runStep runs one step of j: it waits for a slot, starts the run, waits
// for its end and records it in step i. When ctx ends first the run is
// cancelled (its process group killed) and the step is marked cancelled.
func (m *Manager) runStep(ctx context.Context, j *job, i int, t pipeline.RoleTask) Step {
	cancelled := func(s *Step) { s.State = StateCancelled }
	if ctx.Err() != nil {
		return m.setStep(j, i, cancelled)
	}
	select {
	case m.slots <- struct{}{}:
	case <-ctx.Done():
		return m.setStep(j, i, cancelled)
	}
	defer func() { <-m.slots }()
	if ctx.Err() != nil { // select picks at random when both are ready
		return m.setStep(j, i, cancelled)
	}
	r, err := m.p.StartRole(ctx, t)
	if err != nil {
		return m.setStep(j, i, func(s *Step) { s.State, s.Error = StateFailed, err.Error() })
	}
	m.setStep(j, i, func(s *Step) { s.RunID, s.State = r.ID, StateRunning })
	r, err = m.p.WaitRun(ctx, r.ID)
	if ctx.Err() != nil {
		m.p.Cancel(r.ID) //nolint:errcheck // it may have ended by itself meanwhile
		r, err = m.p.WaitRun(context.WithoutCancel(ctx), r.ID)
		if err == nil && r.State != pipeline.StateDone {
			return m.setStep(j, i, func(s *Step) { s.State, s.Answer = StateCancelled, clip(r.Text) })
		}
	}
	if err != nil {
		return m.setStep(j, i, func(s *Step) { s.State, s.Error = StateFailed, err.Error() })
	}
	return m.setStep(j, i, func(s *Step) {
		s.State, s.Answer, s.Error = StateFailed, clip(r.Text), r.Error
		if r.State == pipeline.StateDone {
			s.State = StateDone
		}
	})
}

func (m *Manager) setStep(j *job, i int, f func(*Step)) Step {
	var out Step
	j.update(func(s *Status) {
		f(&s.Steps[i])
		out = s.Steps[i]
	})
	return out
}

// maxAnswer bounds an answer kept in a status or passed to the next step:
// a status is read by a model through a tool result.
const maxAnswer = 8000

func clip(s string) string {
	if r := []rune(s); len(r) > maxAnswer {
		return string(r[:maxAnswer]) + "\n…(cut)"
	}
	return s
}

func newID(kind string) string {
	var b [8]byte
	rand.Read(b[:])
	return kind + "_" + hex.EncodeToString(b[:])
}
