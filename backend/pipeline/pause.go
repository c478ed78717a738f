package pipeline

import (
	"fmt"

	"github.com/osfoundry/desktop/backend/agentcli"
)

// Pause freezes a running run: id is a run id or a chat id (its run in
// progress). The run's whole process group stops (nothing it started keeps
// working) and its time limit holds until Resume. The card moves to Paused,
// from where it can be resumed or ended.
func (s *Service) Pause(id string) error {
	ar, err := s.pausable(id)
	if err != nil {
		return err
	}
	if err := ar.ctl.Pause(); err != nil {
		return fmt.Errorf("pausing %s: %w", ar.agent, err)
	}
	s.changed(ar.chatID)
	return nil
}

// Resume continues a paused run (a run id or a chat id). Resuming a run
// that is not paused does nothing.
func (s *Service) Resume(id string) error {
	ar, err := s.pausable(id)
	if err != nil {
		return err
	}
	if err := ar.ctl.Resume(); err != nil {
		return fmt.Errorf("resuming %s: %w", ar.agent, err)
	}
	s.changed(ar.chatID)
	return nil
}

// CanPause reports whether runs can be frozen on this system.
func CanPause() bool { return agentcli.PauseSupported() }

func (s *Service) pausable(id string) (*activeRun, error) {
	if !agentcli.PauseSupported() {
		return nil, agentcli.ErrPauseUnavailable
	}
	ar := s.activeRunOf(id)
	if ar == nil {
		ar = s.activeRunOf(s.activeFor(id)) // a chat id: its run in progress
	}
	if ar == nil {
		return nil, fmt.Errorf("%s has no run in progress: only a running chat or agent run can be paused or resumed", id)
	}
	return ar, nil
}

// paused reports whether the run in progress runID is frozen.
func (s *Service) paused(runID string) bool {
	ar := s.activeRunOf(runID)
	return ar != nil && ar.ctl.Paused()
}

// pausedLine is the card's why line while a run is frozen.
func pausedLine(agent string) string {
	return "Paused — " + agent + " is frozen until you resume it"
}

// activeRunOf returns the run in progress runID, or nil.
func (s *Service) activeRunOf(runID string) *activeRun {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.active[runID]
}
