package wailsui

import (
	"errors"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// OpenURL shows url in the system browser (a team server's sign-in page),
// the way links in the window open.
func (e *Emitter) OpenURL(url string) error {
	c := e.ctx.Load()
	if c == nil {
		return errors.New("the window has not started yet")
	}
	runtime.BrowserOpenURL(*c, url)
	return nil
}
