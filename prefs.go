package main

import (
	"fmt"
	"os"

	"github.com/osfoundry/desktop/backend/settings"
)

// openSettings reads the person's preferences and applies them: desktop
// notifications follow the Settings switch from now on, at every start.
func (a *App) openSettings() {
	s, err := settings.Open(a.dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "osfoundry:", err) // s still holds the defaults
	}
	s.Follow(func(p settings.Prefs) { a.notifier.SetEnabled(p.Notifications) })
	a.prefs = s
	home, _ := os.UserHomeDir()
	a.Settings = settings.NewBinding(s, a.emit, home)
}
