package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"

	"github.com/osfoundry/desktop/backend/shellenv"
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

// fullCollectionsVar makes JavaScriptCore, the web view's JavaScript
// engine, collect the whole heap each time it collects. By default it is
// generational: what outlives a young collection — the row elements
// xterm.js replaces each time a pane on screen redraws — waits in the old
// generation until the heap reaches two to three times its live size
// before a full collection frees it. With one pane drawing a 10 Hz counter
// the web process went from 66 to 188 MiB over 54 minutes before a full
// collection took it back to 93 (make soak); collecting the whole heap each
// time, for under one percent more of a core, it went from 64 to 77 MiB
// over 40 minutes, and that rest was WebKit's own text cache, not the
// JavaScript heap (frontend/src/lib/terminalRows.ts). The app's live
// JavaScript heap is a few MB, so a full collection is short.
const fullCollectionsVar = "JSC_useGenerationalGC"

// tuneWebView applies the web view's settings that only the environment
// carries, on Linux (WebKitGTK), unless the person set them: before the
// window toolkit starts a thread (setenv is unsafe beside them), kept from
// panes and workers (Bun-built CLIs read JSC_ variables too).
func tuneWebView() error {
	if runtime.GOOS != "linux" {
		return nil
	}
	_, err := shellenv.SetForWindow(fullCollectionsVar, "false")
	return err
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
