//go:build !windows

package terminal

import (
	"os"
	"os/signal"
	"syscall"
)

// terminalSignals are the signals a terminal sends its programs: the
// hangup when a pane closes, Ctrl-C and Ctrl-\.
var terminalSignals = []os.Signal{syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT}

// defaultSignalsForPanes makes a pane's programs start with the default
// action for terminalSignals even when the app was started with them
// ignored (under nohup, or as a background job of a script): exec keeps
// an ignored signal ignored, so Ctrl-C would do nothing in the pane and a
// shell could not even trap the hangup that closing its pane sends. A
// signal the app catches is reset to the default by exec, so an ignored
// one is caught here and dropped: the app goes on ignoring it.
func defaultSignalsForPanes() {
	var ignored []os.Signal
	for _, s := range terminalSignals {
		if signal.Ignored(s) {
			ignored = append(ignored, s)
		}
	}
	if len(ignored) == 0 {
		return
	}
	c := make(chan os.Signal, 8)
	signal.Notify(c, ignored...)
	go func() {
		for range c {
		}
	}()
}
