// Command osfoundry is the osFoundry desktop app. With no arguments it
// opens the window; with a subcommand it runs headless (see `osfoundry help`).
package main

import (
	"embed"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/osfoundry/desktop/backend/cli"
)

//go:embed all:frontend/dist
var assets embed.FS

func main() {
	// The app's live Go heap is a few MB; the default GC target collects
	// every couple of MB, which showed up as about half of the bridge's p95
	// per-call latency (osfoundry bench bridge: allowed-call p95 0.9 ms at
	// GOGC=100, 0.3 ms at 400). A larger target costs a few MB of heap.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if len(os.Args) > 1 && cli.Has(os.Args[1]) {
		os.Exit(cli.Main(os.Args[1:]))
	}
	if err := runWindow(); err != nil {
		fmt.Fprintln(os.Stderr, "osfoundry:", err)
		os.Exit(1)
	}
}
