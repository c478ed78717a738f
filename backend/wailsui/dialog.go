package wailsui

import (
	"errors"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// ChooseDirectory opens the system's folder dialog over the window and
// returns the chosen folder, or "" when the person cancelled.
func (e *Emitter) ChooseDirectory(title, start string) (string, error) {
	c := e.ctx.Load()
	if c == nil {
		return "", errors.New("the window is still starting; try again in a moment")
	}
	return runtime.OpenDirectoryDialog(*c, runtime.OpenDialogOptions{Title: title, DefaultDirectory: start, CanCreateDirectories: true})
}
