package orchestrate

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"

	"github.com/osfoundry/desktop/backend/pipeline"
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
	r, err := m.p.StartRole(ctx, t)
	if err != nil {
		return m.setStep(j, i, func(s *Step) { s.State, s.Error, s.EndedAt = StateFailed, err.Error(), time.Now().UnixMilli() })
	}
	m.setStep(j, i, func(s *Step) { s.RunID, s.State, s.StartedAt = r.ID, StateRunning, time.Now().UnixMilli() })
	defer m.countCost(j, i)
	r, err = m.p.WaitRun(ctx, r.ID)
	if ctx.Err() != nil {
		m.p.Cancel(r.ID) //nolint:errcheck // it may have ended by itself meanwhile
		r, err = m.p.WaitRun(context.WithoutCancel(ctx), r.ID)
		if err == nil && r.State != pipeline.StateDone {
			return m.setStep(j, i, func(s *Step) {
				cancelled(s)
				s.Answer, s.CostUSD, s.Progress = clip(r.Text), r.ReportedCostUSD, ""
			})
		}
	}
	if err != nil {
		return m.setStep(j, i, func(s *Step) { s.State, s.Error, s.EndedAt = StateFailed, err.Error(), time.Now().UnixMilli() })
	}
	return m.setStep(j, i, func(s *Step) {
		s.State, s.Answer, s.Error, s.CostUSD, s.Progress = StateFailed, clip(r.Text), r.Error, r.ReportedCostUSD, ""
		s.EndedAt = time.Now().UnixMilli()
		if r.State == pipeline.StateDone {
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
		for _, st := range s.Steps {
			s.CostUSD += st.CostUSD
		}
		total, limit = s.CostUSD, s.Limits.MaxSpendUSD
	})
	if limit > 0 && total >= limit {
		j.stop(fmt.Sprintf("stopped: spend limit %s reached (%s spent)", usd(limit), usd(total)))
	}
}

// usd shows dollars as a person reads them: $0.50, $12.00, and under a
// cent with the digits that matter ($0.0042, a limit as typed: $0.000001).
func usd(v float64) string {
	if v >= 0.01 || v == 0 {
		return fmt.Sprintf("$%.2f", v)
	}
	if s := fmt.Sprintf("%.4f", v); s != "0.0000" {
		return "$" + s
	}
	return "$" + strconv.FormatFloat(v, 'f', -1, 64)
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
