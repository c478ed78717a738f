// Command osfoundry is the command line of osFoundry desktop, built without
// cgo and without the window toolkit so it starts in a few milliseconds:
// the hooks the app adds to agent panes call it on every tool use. With a
// subcommand it runs headless (`osfoundry help`); with no arguments, or
// with an osfoundry:// link (how the desktop hands over a clicked link), it
// opens the window app installed beside it, or brings the running window
// to the front.
package main

import (
	"os"
	"strings"

	"github.com/osfoundry/desktop/backend/cli"
	"github.com/osfoundry/desktop/backend/launch"
)

func main() {
	args := os.Args[1:]
	if len(args) == 0 || len(args) == 1 && strings.HasPrefix(strings.ToLower(args[0]), "osfoundry:") {
		os.Exit(launch.OpenWindow(args, os.Stderr))
	}
	// Subcommands, and a clear "unknown command" for anything else: a typo
	// does not open a window.
	os.Exit(cli.Main(args))
}
