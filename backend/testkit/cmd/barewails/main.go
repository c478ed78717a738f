// Command barewails is a bare Wails window (a static page, no app code):
// the reference that `build/scripts/bench-startup.sh` times beside
// osFoundry in the same run, on the same machine. Built with
// -ldflags "-X main.page=xterm" its page holds four xterm.js terminals
// instead (their script copied into dist/xterm by the bench): the floor
// of any window that shows 4 panes with xterm.js.
package main

import (
	"embed"
	"io/fs"
	"log"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
)

//go:embed dist
var assets embed.FS

// page is the folder of dist the window shows: bare or xterm.
var page = "bare"

func main() {
	sub, err := fs.Sub(assets, "dist/"+page)
	if err != nil {
		log.Fatal(err)
	}
	err = wails.Run(&options.App{
		Title: "bare", Width: 1280, Height: 820,
		BackgroundColour: &options.RGBA{R: 24, G: 24, B: 27, A: 255},
		AssetServer:      &assetserver.Options{Assets: sub},
	})
	if err != nil {
		log.Fatal(err)
	}
}
