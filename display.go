package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
)

// errNoDisplay is what a window started with nowhere to show itself says
// (an ssh session, a service, a container), before any pane starts.
var errNoDisplay = errors.New("there is no display to open the window on (DISPLAY and WAYLAND_DISPLAY are not set): " +
	"start osFoundry from your desktop session, or on a machine without one under a virtual display: xvfb-run -a osfoundry")

// displayReady fails when a Linux window has no display named at all.
func displayReady() error {
	if runtime.GOOS == "linux" && os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return errNoDisplay
	}
	return nil
}

// openWindow runs the window until it closes. Wails panics when GTK cannot
// open the display it was given; that becomes an error naming the display,
// after what newApp opened is closed (Wails' shutdown hook does not run
// then; no pane was restored yet, that happens in the start hook).
func openWindow(a *App, o *options.App) (err error) {
	defer func() {
		if r := recover(); r != nil {
			a.shutdown(context.Background())
			err = fmt.Errorf("the window could not open on display %q (%v): check that the display is running and this user may use it, "+
				"or start osFoundry under a virtual display: xvfb-run -a osfoundry", displayName(), r)
		}
	}()
	return wails.Run(o)
}

func displayName() string {
	if d := os.Getenv("WAYLAND_DISPLAY"); d != "" && os.Getenv("GDK_BACKEND") != "x11" {
		return d
	}
	return os.Getenv("DISPLAY")
}
