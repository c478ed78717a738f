package usage

import (
	"context"
	"time"
)

// Binding is what the window binds: the Usage screen and the Sessions
// board's usage line call Report.
type Binding struct{ s *Service }

// NewBinding binds a service.
func NewBinding(s *Service) *Binding { return &Binding{s: s} }

// Report returns today's, this week's and the current windows' figures.
func (b *Binding) Report() (Report, error) { return b.s.Report() }

// Watch refreshes after first, then every interval until ctx ends, so a
// window passing 80 % is notified while the Usage screen is closed; a
// refresh reads only what was appended since the last one. The first
// refresh waits: at start the window's first paint comes first.
func (s *Service) Watch(ctx context.Context, first, every time.Duration) {
	t := time.NewTimer(first)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if _, err := s.Report(); err != nil {
			return
		}
		t.Reset(every)
	}
}
