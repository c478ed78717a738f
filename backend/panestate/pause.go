package panestate

import (
	"time"

	"github.com/osfoundry/desktop/backend/detect"
)

// Paused panes. A frozen program cannot answer anything, so nothing it
// shows while paused is news: the rail and the board say "Paused", and no
// desktop notification rings for it. Detection itself keeps running, so
// the state is current the moment the pane is resumed.

// notify passes a notification on unless its pane is paused.
func (w *Watcher) notify(n detect.Notification) {
	if w.paused(n.Session) {
		return
	}
	w.cfg.Notify(n)
}

func (w *Watcher) paused(id string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.states[id].Paused
}

// onPause records a pause or resume in the pane's state and history and
// publishes it like any other state change.
func (w *Watcher) onPause(id string, paused bool) {
	now := time.Now()
	w.mu.Lock()
	st, ok := w.states[id]
	if !ok || st.Paused == paused {
		w.mu.Unlock()
		return
	}
	// The card moves column now: "since" dates the move.
	st.Paused, st.Since = paused, now.UnixMilli()
	w.states[id] = st
	ev := Change{At: now, State: Resumed, Agent: st.Agent}
	if paused {
		ev.State = PausedState
	}
	w.remember(id, ev)
	w.publish(st)
}

// redrawsOnResume: whether the pane's agent draws its whole UI again when
// continued (its rules file says so: Claude Code does), so the pane is
// cleared before it resumes; other programs keep their screen.
func (w *Watcher) redrawsOnResume(id string) bool {
	w.mu.Lock()
	agent := w.states[id].Agent
	w.mu.Unlock()
	rs := w.cfg.Registry.Get(agent)
	return rs != nil && rs.RedrawsOnResume
}

// History entries for a pause and a resume (Change.State).
const (
	PausedState = "paused"
	Resumed     = "resumed"
)
