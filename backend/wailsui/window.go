package wailsui

import "github.com/wailsapp/wails/v2/pkg/runtime"

// Raise brings the window to the front (a desktop notification was
// clicked). Before startup it does nothing.
func (e *Emitter) Raise() {
	if c := e.ctx.Load(); c != nil {
		runtime.WindowUnminimise(*c)
		runtime.WindowShow(*c)
	}
}
