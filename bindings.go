package main

import (
	"fmt"
	"os"

	"github.com/wailsapp/wails/v2/pkg/options"

	"github.com/osfoundry/desktop/backend/settings"
	"github.com/osfoundry/desktop/backend/wailsui"
)

// writeBindings is the whole run of the bindings build (make bindings):
// Wails, built with the bindings tag, writes the TypeScript of the bound
// services into the wailsjsdir of the wails.json in the working folder and
// returns without opening a window. The services are built over a
// throwaway data folder, so generating needs no display, no running
// window's claim on the person's data folder and no login shell. It is
// the one piece of the root package besides main.go and app.go because
// Wails' generator reflects on the very services handed to wails.Run: the
// bindings build has to build the App (newApp), which only the root can.
func writeBindings() error {
	dir, err := os.MkdirTemp("", "osfoundry-bindings-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	a, err := newApp(dir, nil)
	if err != nil {
		return err
	}
	if err := wailsui.Run(&options.App{Title: "osFoundry", Bind: a.bound(&settings.About{})}, a.closeUnopened); err != nil {
		return fmt.Errorf("writing the bindings: %w", err)
	}
	a.db.Close()
	return nil
}
