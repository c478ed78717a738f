// Command osfoundry is the osFoundry desktop app. With no arguments it
// opens the window; with a subcommand it runs headless (see `osfoundry help`).
package main

import (
	"embed"
	"fmt"
	"os"

	"github.com/osfoundry/desktop/backend/cli"
)

//go:embed all:frontend/dist
var assets embed.FS

func main() {
	if len(os.Args) > 1 && cli.Has(os.Args[1]) {
		os.Exit(cli.Main(os.Args[1:]))
	}
	if err := runWindow(); err != nil {
		fmt.Fprintln(os.Stderr, "osfoundry:", err)
		os.Exit(1)
	}
}
