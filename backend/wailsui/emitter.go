// Package wailsui is the one adapter between backend packages and the
// Wails runtime: backend code emits through small Emitter interfaces and
// never imports the runtime itself.
package wailsui

import (
	"context"
	"sync/atomic"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// Emitter sends events to the window once the app has started. Events
// emitted before startup are dropped (nothing is listening yet).
type Emitter struct {
	ctx atomic.Pointer[context.Context]
}

// SetContext is called from the app's OnStartup.
func (e *Emitter) SetContext(ctx context.Context) { e.ctx.Store(&ctx) }

// Emit sends one event with its payload (JSON-encoded by Wails).
func (e *Emitter) Emit(event string, payload any) {
	if c := e.ctx.Load(); c != nil {
		runtime.EventsEmit(*c, event, payload)
	}
}
