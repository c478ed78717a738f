// Package wailsui is the one adapter between backend packages and the
// Wails runtime: it runs the window (Run, after TuneWebView; or, built
// with the bindings tag, writes the TypeScript bindings instead), and
// backend code emits through small Emitter interfaces and never imports
// the runtime itself. Only the root package imports it.
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
