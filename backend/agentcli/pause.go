package agentcli

import (
	"errors"
	"sync"
	"time"
)

// ErrPauseUnavailable is said when the run's process cannot be frozen here
// (Windows, or a run whose program has not started or already ended).
var ErrPauseUnavailable = errors.New("Pausing is not available for this session.")

// Control freezes and continues a running job's whole process group. The
// caller makes one per job (Job.Control) and may call it from any
// goroutine. While paused, the job's time limit does not run: a run frozen
// over lunch is not killed for "taking too long".
type Control struct {
	mu      sync.Mutex
	pgid    int // the running program's process group; 0 before start and after the end
	paused  bool
	ended   bool
	limit   *time.Timer
	left    time.Duration // limit time left while paused
	resumed time.Time     // when the limit last started running
}

// NewControl returns a Control for one job.
func NewControl() *Control { return &Control{} }

// PauseSupported reports whether this platform can freeze a run.
func PauseSupported() bool { return canFreeze }

// Paused reports whether the run is frozen now.
func (c *Control) Paused() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.paused
}

// Pause stops (SIGSTOP) the run's whole process group and holds its time
// limit. Pausing a paused run does nothing.
func (c *Control) Pause() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case !canFreeze:
		return ErrPauseUnavailable
	case c.ended:
		return ErrPauseUnavailable
	case c.paused:
		return nil
	case c.pgid == 0:
		// Still preparing (worktree, bridge): the program is stopped as
		// soon as it starts.
		c.paused = true
		return nil
	}
	if err := freezeGroup(c.pgid, true); err != nil {
		return err
	}
	c.paused = true
	if c.limit != nil && c.limit.Stop() {
		c.left -= time.Since(c.resumed)
	}
	return nil
}

// Resume continues (SIGCONT) a paused run and its time limit. Resuming a
// run that is not paused does nothing.
func (c *Control) Resume() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.paused || c.ended || c.pgid == 0 {
		c.paused = false
		return nil
	}
	if err := freezeGroup(c.pgid, false); err != nil {
		return err
	}
	c.paused = false
	if c.limit != nil {
		c.resumed = time.Now()
		c.limit.Reset(max(c.left, 0))
	}
	return nil
}

// started records the running program; limit is its time-limit timer and
// d the limit's length.
func (c *Control) started(pgid int, limit *time.Timer, d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pgid, c.limit, c.left, c.resumed = pgid, limit, d, time.Now()
	if c.paused {
		// Paused before it started: freeze it now. Should that fail, the
		// run goes on unpaused rather than showing Paused while working.
		if freezeGroup(pgid, true) != nil {
			c.paused = false
			return
		}
		c.limit.Stop()
	}
}

// finished forgets the program (its group may be reused by the system).
func (c *Control) finished() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pgid, c.paused, c.ended = 0, false, true
}
