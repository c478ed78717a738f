package wailsui

import "github.com/wailsapp/wails/v2/pkg/runtime"

// Quit asks the window to close, the way its ✕ does (OnBeforeClose runs
// first). Before startup it does nothing.
func (e *Emitter) Quit() {
	if c := e.ctx.Load(); c != nil {
		runtime.Quit(*c)
	}
}
