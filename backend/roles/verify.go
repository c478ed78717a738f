package roles

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/osfoundry/desktop/backend/agentcli"
)

// EventVerify carries a VerifyState whenever a sign-in check starts,
// shows a new status line, or ends.
const EventVerify = "pipeline:verify"

// ErrVerifyRunning is returned by StartVerify while the same CLI's check
// still runs: there is one check per CLI at a time.
var ErrVerifyRunning = errors.New("a sign-in check of this CLI is already running: wait for it or cancel it")

// VerifyState is one CLI's sign-in check as the External AI tab shows it.
// It lives in the service, so the running check and its last result
// survive the tab being switched away or the dialog closed.
type VerifyState struct {
	Agent   string `json:"agent"`
	Running bool   `json:"running"`
	// Status is the live line while it runs ("Waiting for Anthropic to
	// answer…", the CLI's own "Reconnecting…").
	Status    string                 `json:"status"`
	StartedAt int64                  `json:"startedAt"` // unix ms; 0 when never checked
	Result    *agentcli.Verification `json:"result,omitempty"`
	// Error says why the check could not run (CLI missing, cancelled).
	Error string `json:"error,omitempty"`
	// Seq grows with every change of any check. Events may reach a window
	// out of order (the dev server sends each on its own goroutine), so the
	// tab keeps the state with the highest Seq.
	Seq uint64 `json:"seq"`
}

// verifier holds the checks; the zero value is ready.
type verifier struct {
	mu     sync.Mutex
	states map[agentcli.Agent]*VerifyState
	cancel map[agentcli.Agent]context.CancelFunc
	seq    uint64
}

// snapshot stamps st with the next Seq and copies it; v.mu is held.
func (v *verifier) snapshot(st *VerifyState) VerifyState {
	v.seq++
	st.Seq = v.seq
	return *st
}

// StartVerify starts "Verify sign-in" for agent in the background and
// returns its running state; EventVerify reports its progress and end.
// The check runs under the service's own context (it ends on Close), not
// the caller's, so a closed dialog does not stop it.
func (s *Service) StartVerify(_ context.Context, agent string) (VerifyState, error) {
	a, err := ParseAgent(agent)
	if err != nil {
		return VerifyState{}, err
	}
	s.mu.Lock()
	closed := s.closed
	if !closed {
		s.wg.Add(1) // Close waits for the check to end
	}
	s.mu.Unlock()
	if closed {
		return VerifyState{}, errors.New("the app is closing: verify after it starts again")
	}
	v := &s.checks
	v.mu.Lock()
	if st := v.states[a]; st != nil && st.Running {
		v.mu.Unlock()
		s.wg.Done()
		return *st, fmt.Errorf("%s: %w", a.Title(), ErrVerifyRunning)
	}
	if v.states == nil {
		v.states, v.cancel = map[agentcli.Agent]*VerifyState{}, map[agentcli.Agent]context.CancelFunc{}
	}
	ctx, cancel := context.WithCancel(s.ctx)
	st := &VerifyState{Agent: string(a), Running: true, Status: "Starting " + a.Title() + "…", StartedAt: s.now().UnixMilli()}
	v.states[a], v.cancel[a] = st, cancel
	out := v.snapshot(st)
	v.mu.Unlock()
	s.em.Emit(EventVerify, out)

	go func() {
		defer s.wg.Done()
		defer cancel()
		res, err := s.run.Verify(ctx, a, agentcli.VerifyOptions{OnStatus: func(line string) {
			v.mu.Lock()
			st.Status = line
			snap := v.snapshot(st)
			v.mu.Unlock()
			s.em.Emit(EventVerify, snap)
		}})
		v.mu.Lock()
		st.Running, st.Status = false, ""
		switch {
		case errors.Is(err, agentcli.ErrCanceled):
			st.Error = "Check cancelled."
		case err != nil:
			st.Error = err.Error()
		default:
			st.Result = &res
		}
		delete(v.cancel, a)
		snap := v.snapshot(st)
		v.mu.Unlock()
		s.em.Emit(EventVerify, snap)
	}()
	return out, nil
}

// CancelVerify stops agent's running check (and the CLI's process group).
func (s *Service) CancelVerify(agent string) error {
	a, err := ParseAgent(agent)
	if err != nil {
		return err
	}
	s.checks.mu.Lock()
	cancel := s.checks.cancel[a]
	s.checks.mu.Unlock()
	if cancel == nil {
		return fmt.Errorf("no sign-in check of %s is running", a.Title())
	}
	cancel()
	return nil
}

// VerifyStates is every CLI's check: running, finished, or never run.
func (s *Service) VerifyStates() []VerifyState {
	s.checks.mu.Lock()
	defer s.checks.mu.Unlock()
	var out []VerifyState
	for _, a := range []agentcli.Agent{agentcli.Claude, agentcli.Codex} {
		if st := s.checks.states[a]; st != nil {
			out = append(out, *st)
		} else {
			out = append(out, VerifyState{Agent: string(a)})
		}
	}
	return out
}
