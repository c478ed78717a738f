package launch

import (
	"errors"
	"os"
	"runtime"
)

// ErrNoDisplay is what a window started with nowhere to show itself says
// (an ssh session, a service, a container), before any pane starts.
var ErrNoDisplay = errors.New("there is no display to open the window on (DISPLAY and WAYLAND_DISPLAY are not set): " +
	"start osFoundry from your desktop session, or on a machine without one under a virtual display: xvfb-run -a osfoundry")

// DisplayReady fails with ErrNoDisplay when a Linux window has no display
// named at all. A display that is named but cannot be opened only shows
// when the window toolkit tries (wailsui.Run says so).
func DisplayReady() error {
	if runtime.GOOS == "linux" && os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return ErrNoDisplay
	}
	return nil
}
