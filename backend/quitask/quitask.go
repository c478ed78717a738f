// Package quitask decides whether a request to close the window quits the
// app: while a pane's agent is working or waits for the user, the window
// asks first ("Quit anyway" / "Cancel"), as closing one busy pane does.
// It never ends anything itself and never sees signals: SIGTERM from the
// system ends the app without asking (app.go).
package quitask

import (
	"context"
	"sync/atomic"

	"github.com/osfoundry/desktop/backend/panestate"
)

// EventAsk carries the panes a close request would cut short to the window,
// which shows the question ('app:quit-asked' in src/lib/events.ts).
const EventAsk = "app:quit-asked"

// Emitter is the window's event sink; Raise brings it to the front, since a
// close request can come from the dock, the taskbar or a logout.
type Emitter interface {
	Emit(event string, payload any)
	Raise()
}

// Guard answers the window's close requests. Bound to the window, its
// methods are what the question's buttons and Ctrl+Q call.
type Guard struct {
	busy      func() []panestate.BusyPane
	em        Emitter
	quit      func() // asks the window to close (which calls BeforeClose again)
	confirmed atomic.Bool
}

// New makes the guard: busy lists the panes at work, quit requests the
// window's close.
func New(busy func() []panestate.BusyPane, em Emitter, quit func()) *Guard {
	return &Guard{busy: busy, em: em, quit: quit}
}

// BeforeClose is the window's OnBeforeClose: true keeps the window open and
// shows the question naming the busy panes.
func (g *Guard) BeforeClose(context.Context) bool {
	if g.confirmed.Load() {
		return false
	}
	busy := g.busy()
	if len(busy) == 0 {
		return false
	}
	g.em.Raise()
	g.em.Emit(EventAsk, busy)
	return true
}

// Quit is Ctrl+Q in the window: the same request as the window's ✕, asked
// about the same way.
func (g *Guard) Quit() { g.quit() }

// QuitAnyway is the question's "Quit anyway": the app quits and does not
// ask again.
func (g *Guard) QuitAnyway() {
	g.confirmed.Store(true)
	g.quit()
}
