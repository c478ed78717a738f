package board

import (
	"errors"
	"sync"

	"github.com/osfoundry/desktop/backend/panestate"
)

// Service is the Sessions board's binding (window.go.board.Service).
type Service struct {
	b     *Board
	panes *panestate.Watcher

	rulesMu sync.Mutex // rules change when the detection rules are reloaded
	rules   []string
}

// NewService binds b; w (may be nil) gives the Terminal rail its states.
func NewService(b *Board, w *panestate.Watcher) *Service { return &Service{b: b, panes: w} }

// SetRuleProblems records broken detection-rule overrides (they were
// ignored and the bundled rules are in use) for the window to show.
func (s *Service) SetRuleProblems(problems []string) {
	s.rulesMu.Lock()
	defer s.rulesMu.Unlock()
	s.rules = append([]string(nil), problems...)
}

// RuleProblems lists the broken overrides found at the last (re)load, each
// saying which file, what is wrong and that the bundled rules are used instead.
func (s *Service) RuleProblems() []string {
	s.rulesMu.Lock()
	defer s.rulesMu.Unlock()
	return append([]string{}, s.rules...)
}

// DropResult answers a drop: Allowed means "ask the user, then call End";
// otherwise Message (if any) is shown as the refusal.
type DropResult struct {
	Allowed bool   `json:"allowed"`
	Message string `json:"message"`
}

// Cards lists the board's cards.
func (s *Service) Cards() []Card { return s.b.Cards() }

// Columns lists the columns, left to right.
func (s *Service) Columns() []string { return Columns }

// Drop checks a drag of card key onto column against the rules.
func (s *Service) Drop(key, column string) DropResult {
	err := s.b.Drop(key, column)
	switch {
	case err == nil:
		return DropResult{Allowed: true}
	case errors.Is(err, ErrSameColumn):
		return DropResult{}
	}
	return DropResult{Message: err.Error()}
}

// End writes the session's summary and ends it (after the user confirmed);
// it returns the summary file's path.
func (s *Service) End(key string) (string, error) { return s.b.End(key) }

// Pause freezes a session (Running, Needs you or Idle card with canPause).
func (s *Service) Pause(key string) error { return s.b.Pause(key) }

// Resume continues a paused session.
func (s *Service) Resume(key string) error { return s.b.Resume(key) }

// PaneStates lists every terminal pane's detected state (the rail).
func (s *Service) PaneStates() []panestate.PaneState {
	if s.panes == nil {
		return []panestate.PaneState{}
	}
	return s.panes.States()
}

// Clear takes a finished card (Done or Failed) off the board.
func (s *Service) Clear(key string) error { return s.b.Clear(key) }

// ReadSummary returns the Markdown of a Done summary (for the viewer).
// Only files in the knowledge folder's sessions/ can be read.
func (s *Service) ReadSummary(path string) (string, error) { return s.b.ReadSummary(path) }
