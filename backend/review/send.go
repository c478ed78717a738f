package review

import (
	"errors"
	"fmt"
	"sync"
)

// Agent is what sending needs of a pane: its agent's state, and typing.
type Agent interface {
	// AgentState is the pane's agent state now: "idle", "working",
	// "blocked" or "starting" (nothing on screen says which yet); ok
	// false when no agent runs in the pane (or it ended).
	AgentState(pane string) (state string, paused, ok bool)
	// Type types text into the pane, then Enter.
	Type(pane, text string) error
}

// ErrNoAgent: nothing to send the comments to.
var ErrNoAgent = errors.New("no agent is running in this pane")

// Delivery says what became of "Send to agent".
type Delivery struct {
	State string `json:"state"` // "sent", or "queued" until the agent is idle
	Count int    `json:"count"` // comments in the message
}

// queue holds, per pane, the comments waiting for the agent to be idle.
type queue struct {
	mu      sync.Mutex
	pending map[string]pending
}

type pending struct {
	repo, branch string
}

// Send gives the pane's agent the branch's open comments as one message
// now when it is idle, or queues them until it is (working, waiting for a
// decision, paused). Comments stay until resolved either way.
func (s *Service) Send(pane string) (Delivery, error) {
	b, err := s.branchOf(pane)
	if err != nil {
		return Delivery{}, err
	}
	cs, err := s.comments.Open(b.Repo, b.Name)
	if err != nil {
		return Delivery{}, err
	}
	if len(cs) == 0 {
		return Delivery{}, errors.New("there are no open comments to send — add one on a line of the diff first")
	}
	state, paused, ok := s.agent.AgentState(pane)
	if !ok {
		return Delivery{}, fmt.Errorf("%w — start the agent in the pane, then send the comments again (they are kept)", ErrNoAgent)
	}
	if state != "idle" || paused {
		p := pending{repo: b.Repo, branch: b.Name}
		// Kept in the app database first: a restart does not lose it.
		if err := s.comments.queue(pane, p); err != nil {
			return Delivery{}, err
		}
		s.q.mu.Lock()
		if s.q.pending == nil {
			s.q.pending = map[string]pending{}
		}
		s.q.pending[pane] = p
		s.q.mu.Unlock()
		s.changed(pane)
		return Delivery{State: "queued", Count: len(cs)}, nil
	}
	if err := s.deliver(pane, b.Repo, b.Name, cs); err != nil {
		return Delivery{}, err
	}
	return Delivery{State: "sent", Count: len(cs)}, nil
}

// Queued says whether the pane's comments wait for its agent.
func (s *Service) Queued(pane string) bool {
	s.q.mu.Lock()
	defer s.q.mu.Unlock()
	_, ok := s.q.pending[pane]
	return ok
}

// AgentChanged is called when a pane's agent state changed: queued
// comments go out once it is idle (also a pane restored with the app,
// whose queue New read back).
func (s *Service) AgentChanged(pane string) {
	s.q.mu.Lock()
	p, ok := s.q.pending[pane]
	s.q.mu.Unlock()
	if !ok {
		return
	}
	state, paused, alive := s.agent.AgentState(pane)
	if !alive || state != "idle" || paused {
		return
	}
	s.q.mu.Lock()
	if _, still := s.q.pending[pane]; !still {
		s.q.mu.Unlock()
		return
	}
	delete(s.q.pending, pane)
	s.q.mu.Unlock()
	if err := s.comments.unqueue(pane); err != nil {
		s.log("%v", err)
	}
	cs, err := s.comments.Open(p.repo, p.branch)
	if err == nil && len(cs) > 0 {
		err = s.deliver(pane, p.repo, p.branch, cs)
	}
	if err != nil {
		s.log("sending the queued review comments: %v", err)
	}
	s.changed(pane)
}

// Forget drops what was queued for a pane that closed (its comments stay).
func (s *Service) Forget(pane string) {
	s.q.mu.Lock()
	delete(s.q.pending, pane)
	s.q.mu.Unlock()
	if err := s.comments.unqueue(pane); err != nil {
		s.log("%v", err)
	}
}

func (s *Service) deliver(pane, repo, branch string, cs []Comment) error {
	if err := s.agent.Type(pane, Message(branch, cs)); err != nil {
		return fmt.Errorf("sending the comments: %w", err)
	}
	ids := make([]int64, len(cs))
	for i, k := range cs {
		ids[i] = k.ID
	}
	if err := s.comments.markSent(ids); err != nil {
		return err
	}
	s.changed(pane)
	return nil
}
