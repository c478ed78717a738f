package wailsui

import (
	"fmt"
	"os"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
)

// Run runs the window until it closes. Wails panics when GTK cannot open
// the display it was given; that becomes an error naming the display,
// after cleanup ran: Wails' shutdown hook does not run then, so cleanup
// closes what the app opened before the window.
func Run(o *options.App, cleanup func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			cleanup()
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
