package wailsui

import (
	"runtime"

	"github.com/osfoundry/desktop/backend/shellenv"
)

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

// darkThemeVar asks GTK for its dark theme. WebKitGTK draws a <select>'s
// popup list as a GTK menu, which follows the GTK theme, not the page's
// color-scheme: on a light desktop theme the app's dark window opened
// white dropdown menus. Adwaita ships inside GTK, so its dark variant is
// there on every desktop.
const darkThemeVar = "GTK_THEME"

// TuneWebView applies the web view's settings that only the environment
// carries, on Linux (WebKitGTK), unless the person set them: call it before
// Run, since setenv is unsafe beside the threads the window toolkit starts
// (shellenv's package note). The variables are kept from panes and workers
// (Bun-built CLIs read JSC_ variables too; a GTK app started from a pane
// keeps the person's own theme).
func TuneWebView() error {
	if runtime.GOOS != "linux" {
		return nil
	}
	for _, v := range [][2]string{{fullCollectionsVar, "false"}, {darkThemeVar, "Adwaita:dark"}} {
		if _, err := shellenv.SetForWindow(v[0], v[1]); err != nil {
			return err
		}
	}
	return nil
}
