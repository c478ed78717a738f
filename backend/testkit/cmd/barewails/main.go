// Command barewails is a bare Wails window (a static page, no app code):
// the reference that `build/scripts/bench-startup.sh` times beside
// osFoundry in the same run, on the same machine.
package main

import (
	"embed"
	"log"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
)

//go:embed dist
var assets embed.FS

func main() {
	err := wails.Run(&options.App{
		Title: "bare", Width: 1280, Height: 820,
		BackgroundColour: &options.RGBA{R: 24, G: 24, B: 27, A: 255},
		AssetServer:      &assetserver.Options{Assets: assets},
	})
	if err != nil {
		log.Fatal(err)
	}
}
