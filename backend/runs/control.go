package runs

import (
	"context"
	"errors"
	"fmt"

	"github.com/osfoundry/desktop/backend/agentcli"
)

// Cancel stops a run (its whole process group) and waits until it is
// recorded as failed.
func (e *Engine) Cancel(runID string) error {
	lr := e.liveRun(runID)
	if lr == nil {
		return fmt.Errorf("run %s is not running", runID)
	}
	lr.cancel()
	<-lr.done
	return nil
}

// Wait blocks until a run is no longer active (tests, the headless run).
func (e *Engine) Wait(runID string) { <-e.Done(runID) }

// closedDone is what Done returns for a run that is not running.
var closedDone = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// Done returns a channel closed once the run has ended and is recorded
// (already closed for a run that is not running).
func (e *Engine) Done(runID string) <-chan struct{} {
	if lr := e.liveRun(runID); lr != nil {
		return lr.done
	}
	return closedDone
}

// WaitRun waits until a run has ended or ctx is done, and returns the run
// as recorded then (still running when ctx ended first).
func (e *Engine) WaitRun(ctx context.Context, id string) (Run, error) {
	select {
	case <-e.Done(id):
	case <-ctx.Done():
	}
	return e.Get(context.WithoutCancel(ctx), id)
}

// OriginOf returns who started a running run; false when it is not
// running.
func (e *Engine) OriginOf(runID string) (Origin, bool) {
	if lr := e.liveRun(runID); lr != nil {
		return lr.origin, true
	}
	return Origin{}, false
}

// ActiveFor returns the id of chatID's run in progress ("" when none).
func (e *Engine) ActiveFor(chatID string) string {
	if chatID == "" {
		return ""
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for id, lr := range e.active {
		if lr.chatID == chatID {
			return id
		}
	}
	return ""
}

// Progress returns the steps of a run in progress so far (nil when it is
// not running).
func (e *Engine) Progress(runID string) []string {
	lr := e.liveRun(runID)
	if lr == nil {
		return nil
	}
	lr.mu.Lock()
	defer lr.mu.Unlock()
	return append([]string{}, lr.progress...)
}

// Live says whether runID is in progress and, when it is frozen, the why
// line its card shows.
func (e *Engine) Live(runID string) (running bool, pausedWhy string) {
	lr := e.liveRun(runID)
	if lr == nil {
		return false, ""
	}
	if lr.ctl.Paused() {
		return true, PausedLine(lr.agent)
	}
	return true, ""
}

// CanPause reports whether runs can be frozen on this system.
func CanPause() bool { return agentcli.PauseSupported() }

// Pause freezes a running run: id is a run id or a chat id (its run in
// progress). The run's whole process group stops (nothing it started keeps
// working) and its time limit holds until Resume.
func (e *Engine) Pause(id string) error {
	lr, err := e.pausable(id)
	if err != nil {
		return err
	}
	if err := lr.ctl.Pause(); err != nil {
		return fmt.Errorf("pausing %s: %w", lr.agent, err)
	}
	e.o.Changed(lr.chatID)
	return nil
}

// Resume continues a paused run (a run id or a chat id). Resuming a run
// that is not paused does nothing.
func (e *Engine) Resume(id string) error {
	lr, err := e.pausable(id)
	if err != nil {
		return err
	}
	if err := lr.ctl.Resume(); err != nil {
		return fmt.Errorf("resuming %s: %w", lr.agent, err)
	}
	e.o.Changed(lr.chatID)
	return nil
}

func (e *Engine) pausable(id string) (*live, error) {
	if !agentcli.PauseSupported() {
		return nil, agentcli.ErrPauseUnavailable
	}
	lr := e.liveRun(id)
	if lr == nil {
		lr = e.liveRun(e.ActiveFor(id)) // a chat id: its run in progress
	}
	if lr == nil {
		return nil, fmt.Errorf("%s has no run in progress: only a running chat or agent run can be paused or resumed", id)
	}
	return lr, nil
}

// Paused reports whether the run in progress runID is frozen.
func (e *Engine) Paused(runID string) bool {
	lr := e.liveRun(runID)
	return lr != nil && lr.ctl.Paused()
}

// PausedLine is the card's why line while a run is frozen.
func PausedLine(agent string) string {
	return "Paused — " + agent + " is frozen until you resume it"
}

func (e *Engine) liveRun(runID string) *live {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.active[runID]
}

// Tracked is work that is not a run but holds a chat like one (a chat
// being compacted): the chat reads Running, takes no task, and Cancel or
// Pause reach it.
type Tracked struct {
	Ctx     context.Context
	Control *agentcli.Control
	release func()
}

// Release ends the tracked work; call it once, when the work is done.
func (t Tracked) Release() { t.release() }

// ErrChatBusy refuses tracked work on a chat that has a run going.
var ErrChatBusy = errors.New("a run is still going in this chat")

// Track holds chatID under id for work of agent (its product name) until
// Release; ctx cancels the work when it ends. It refuses when the engine
// is closing (an error) or a run holds the chat (ErrChatBusy).
func (e *Engine) Track(ctx context.Context, id, chatID, agent string, progress []string) (Tracked, error) {
	rctx, cancel := context.WithCancel(e.ctx)
	stop := context.AfterFunc(ctx, cancel)
	lr := &live{id: id, chatID: chatID, cancel: cancel, done: make(chan struct{}), ctl: agentcli.NewControl(),
		agent: agent, progress: progress}
	e.mu.Lock()
	busy := false
	for _, a := range e.active {
		busy = busy || a.chatID == chatID
	}
	switch {
	case e.closed:
		e.mu.Unlock()
		stop()
		cancel()
		return Tracked{}, errors.New("the app is shutting down")
	case busy:
		e.mu.Unlock()
		stop()
		cancel()
		return Tracked{}, ErrChatBusy
	}
	e.active[id] = lr
	e.wg.Add(1)
	e.mu.Unlock()
	e.o.Changed(chatID)
	return Tracked{Ctx: rctx, Control: lr.ctl, release: func() {
		e.mu.Lock()
		delete(e.active, id)
		e.mu.Unlock()
		close(lr.done)
		stop()
		cancel()
		e.wg.Done()
		e.o.Changed(chatID)
	}}, nil
}
