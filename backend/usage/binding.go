package usage

import (
	"context"
	"sort"
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

// ClaudeModels lists the models Claude Code's sessions on this computer
// ran, the most recently used first (the pickers offer them as full ids).
func (s *Service) ClaudeModels() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.claude) == 0 {
		s.refreshClaude()
	}
	last := map[string]int64{}
	for _, f := range s.claude {
		for _, e := range f.entries {
			if e.model != "" && e.at > last[e.model] {
				last[e.model] = e.at
			}
		}
	}
	out := make([]string, 0, len(last))
	for m := range last {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool {
		if last[out[i]] != last[out[j]] {
			return last[out[i]] > last[out[j]]
		}
		return out[i] < out[j]
	})
	return out
}
