package detect

import (
	"sync"
	"time"
)

// DefaultSweep is the safety sweep: every pane is re-read this often even
// when nothing told its tracker about a change (a missed notification, a
// report that went stale, a resize). Change-triggered evaluation does the
// real work, so the sweep can be slow and cheap.
const DefaultSweep = 2 * time.Second

// Scheduler runs the safety sweep over a set of trackers.
type Scheduler struct {
	clock Clock
	every time.Duration

	mu       sync.Mutex
	trackers map[*Tracker]struct{}
	timer    Timer
	running  bool
}

// NewScheduler makes a sweeper; every <= 0 means DefaultSweep.
func NewScheduler(clock Clock, every time.Duration) *Scheduler {
	if clock == nil {
		clock = RealClock()
	}
	if every <= 0 {
		every = DefaultSweep
	}
	return &Scheduler{clock: clock, every: every, trackers: map[*Tracker]struct{}{}}
}

// Add puts a tracker under the sweep.
func (s *Scheduler) Add(t *Tracker) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.trackers[t] = struct{}{}
}

// Remove takes a tracker out of the sweep and closes it.
func (s *Scheduler) Remove(t *Tracker) {
	s.mu.Lock()
	delete(s.trackers, t)
	s.mu.Unlock()
	t.Close()
}

// Start begins sweeping; Stop ends it. Both are idempotent.
func (s *Scheduler) Start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running {
		return
	}
	s.running = true
	s.timer = s.clock.AfterFunc(s.every, s.sweep)
}

func (s *Scheduler) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.running = false
	if s.timer != nil {
		s.timer.Stop()
	}
}

// Sweep re-evaluates every tracker now.
func (s *Scheduler) Sweep() {
	s.mu.Lock()
	list := make([]*Tracker, 0, len(s.trackers))
	for t := range s.trackers {
		list = append(list, t)
	}
	s.mu.Unlock()
	for _, t := range list {
		t.poll()
		t.Evaluate()
	}
}

func (s *Scheduler) sweep() {
	s.Sweep()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running {
		s.timer = s.clock.AfterFunc(s.every, s.sweep)
	}
}
