package orchestrate

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/osfoundry/desktop/backend/cost"
	"github.com/osfoundry/desktop/backend/pipeline"
	"github.com/osfoundry/desktop/backend/runs"
)

// runStep runs one step of j: it waits for a slot, starts the run, waits
// for its end and records it in step i. When ctx ends first the run is
// cancelled (its process group killed) and the step is marked cancelled.
func (m *Manager) runStep(jctx context.Context, j *job, i int, t pipeline.RoleTask) Step {
	// Each child has a context of its own so a person can cancel it alone.
	ctx, cancelChild := context.WithCancel(jctx)
	defer cancelChild()
	j.mu.Lock()
	j.children[i] = cancelChild
	if j.byUser[i] {
		cancelChild()
	}
	j.mu.Unlock()
	defer func() {
		j.mu.Lock()
		delete(j.children, i)
		j.mu.Unlock()
	}()
	cancelled := func(s *Step) {
		s.State, s.EndedAt = StateCancelled, time.Now().UnixMilli()
		if jctx.Err() == nil {
			s.Error = "cancelled by you"
		}
	}
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
	r, err := m.roles.StartRole(ctx, t)
	if err != nil {
		return m.setStep(j, i, func(s *Step) { s.State, s.Error, s.EndedAt = StateFailed, err.Error(), time.Now().UnixMilli() })
	}
	m.setStep(j, i, func(s *Step) { s.RunID, s.State, s.StartedAt = r.ID, StateRunning, time.Now().UnixMilli() })
	defer m.countCost(j, i)
	r, err = m.runs.WaitRun(ctx, r.ID)
	if ctx.Err() != nil {
		m.runs.Cancel(r.ID) //nolint:errcheck // it may have ended by itself meanwhile
		r, err = m.runs.WaitRun(context.WithoutCancel(ctx), r.ID)
		if err == nil && r.State != runs.StateDone {
			return m.setStep(j, i, func(s *Step) {
				cancelled(s)
				s.Answer, s.CostUSD, s.Cost, s.Progress = clip(r.Text), r.ReportedCostUSD, cost.OfRun(r.ReportedCostUSD), ""
			})
		}
	}
	if err != nil {
		return m.setStep(j, i, func(s *Step) { s.State, s.Error, s.EndedAt = StateFailed, err.Error(), time.Now().UnixMilli() })
	}
	return m.setStep(j, i, func(s *Step) {
		s.State, s.Answer, s.Error, s.CostUSD, s.Progress = StateFailed, clip(r.Text), r.Error, r.ReportedCostUSD, ""
		s.Cost = cost.OfRun(r.ReportedCostUSD)
		s.EndedAt = time.Now().UnixMilli()
		if r.State == runs.StateDone {
			s.State = StateDone
		}
	})
}

// countCost adds a child's reported cost to its job's total once the child
// ended, and stops the job when the total reaches its spend limit.
func (m *Manager) countCost(j *job, i int) {
	var total, limit float64
	j.update(func(s *Status) {
		s.CostUSD = 0
		costs := make([]cost.Cost, 0, len(s.Steps))
		for _, st := range s.Steps {
			s.CostUSD += st.CostUSD
			costs = append(costs, st.Cost)
		}
		s.Cost = cost.Sum(costs...)
		total, limit = s.CostUSD, s.Limits.MaxSpendUSD
	})
	if limit > 0 && total >= limit {
		j.stop(fmt.Sprintf("stopped: spend limit %s reached (≈%s at API prices)", usd(limit), usd(total)))
	}
}

// usd shows dollars the way backend/cost does.
func usd(v float64) string { return cost.USD(v) }

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
