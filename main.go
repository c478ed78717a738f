// Command osfoundry-desktop is the osFoundry desktop window app. With no
// arguments (or an osfoundry:// link) it opens the window; with a
// subcommand it runs headless like the `osfoundry` command line beside it.
package main

import (
	"embed"
	"fmt"
	"os"

	"github.com/osfoundry/desktop/backend/applog"
	"github.com/osfoundry/desktop/backend/cli"
	"github.com/osfoundry/desktop/backend/launch"
	"github.com/osfoundry/desktop/backend/msgbox"
)

//go:embed all:frontend/dist
var assets embed.FS

func main() {
	if len(os.Args) > 1 && cli.Has(os.Args[1]) {
		launch.AttachParentConsole()
		os.Exit(cli.Main(os.Args[1:])) // Main sets the GC target itself
	}
	cli.TuneGC()
	toFile := applog.Wanted()
	if err := runWindow(toFile); err != nil {
		fmt.Fprintln(os.Stderr, "osfoundry:", err)
		// Opened from a desktop entry, Finder or Explorer there is no
		// terminal: the error must reach the user some other way.
		if toFile && msgbox.Show("osFoundry could not start", err.Error()) == nil {
			os.Exit(launch.ExitShown)
		}
		os.Exit(1)
	}
}
