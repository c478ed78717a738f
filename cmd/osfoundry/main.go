// Command osfoundry is the command line of osFoundry desktop, built without
// cgo and without the window toolkit so it starts in a few milliseconds:
// the hooks the app adds to agent panes call it on every tool use. With a
// subcommand it runs headless (`osfoundry help`); with no arguments, or
// with an osfoundry:// link, it opens the window app installed beside it
// (or brings the running window to the front).
package main

import (
	"os"

	"github.com/osfoundry/desktop/backend/cli"
	"github.com/osfoundry/desktop/backend/launch"
)

func main() {
	if len(os.Args) > 1 && cli.Has(os.Args[1]) {
		os.Exit(cli.Main(os.Args[1:]))
	}
	os.Exit(launch.OpenWindow(os.Args[1:], os.Stderr))
}
