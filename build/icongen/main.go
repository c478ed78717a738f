// Command icongen turns the one icon source (an SVG) into every format the
// platforms need: hicolor PNGs for Linux, a 1024 px PNG, a multi-size .ico
// for Windows and an .icns for macOS. `make icons` runs it.
//
//	go run ./build/icongen -src build/icon.svg -out build/gen/icons
package main

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"

	"github.com/jackmordaunt/icns/v3"
	"github.com/leaanthony/winicon"
	"github.com/srwiley/oksvg"
	"github.com/srwiley/rasterx"
)

// hicolorSizes are the fixed-size folders of the freedesktop icon theme
// that launchers and docks ask for.
var hicolorSizes = []int{16, 22, 24, 32, 48, 64, 128, 256, 512}

// icoSizes are what Explorer, the taskbar and the Start menu pick from.
var icoSizes = []int{16, 24, 32, 48, 64, 128, 256}

func main() {
	src := flag.String("src", "build/icon.svg", "the icon source (SVG)")
	out := flag.String("out", "build/gen/icons", "output folder")
	flag.Parse()
	if err := run(*src, *out); err != nil {
		fmt.Fprintln(os.Stderr, "icongen:", err)
		os.Exit(1)
	}
}

func run(src, out string) error {
	svg, err := os.ReadFile(src)
	if err != nil {
		return fmt.Errorf("reading the icon source: %w", err)
	}
	// Each size is drawn from the vector source, not scaled down from a big
	// bitmap, so the small sizes stay sharp.
	for _, n := range hicolorSizes {
		img, err := render(svg, n)
		if err != nil {
			return err
		}
		if err := writePNG(filepath.Join(out, "hicolor", fmt.Sprintf("%dx%d", n, n), "apps", "osfoundry.png"), img); err != nil {
			return err
		}
	}
	scalable := filepath.Join(out, "hicolor", "scalable", "apps", "osfoundry.svg")
	if err := writeFile(scalable, svg); err != nil {
		return err
	}
	big, err := render(svg, 1024)
	if err != nil {
		return err
	}
	if err := writePNG(filepath.Join(out, "appicon.png"), big); err != nil {
		return err
	}
	var pngBuf, ico, mac bytes.Buffer
	if err := png.Encode(&pngBuf, big); err != nil {
		return fmt.Errorf("encoding the 1024 px icon: %w", err)
	}
	if err := winicon.GenerateIcon(&pngBuf, &ico, icoSizes); err != nil {
		return fmt.Errorf("making the Windows icon: %w", err)
	}
	if err := writeFile(filepath.Join(out, "osfoundry.ico"), ico.Bytes()); err != nil {
		return err
	}
	if err := icns.Encode(&mac, big); err != nil {
		return fmt.Errorf("making the macOS icon: %w", err)
	}
	return writeFile(filepath.Join(out, "osfoundry.icns"), mac.Bytes())
}

// render draws the SVG into an n×n image.
func render(svg []byte, n int) (*image.RGBA, error) {
	icon, err := oksvg.ReadIconStream(bytes.NewReader(svg), oksvg.StrictErrorMode)
	if err != nil {
		return nil, fmt.Errorf("parsing the icon source: %w", err)
	}
	icon.SetTarget(0, 0, float64(n), float64(n))
	img := image.NewRGBA(image.Rect(0, 0, n, n))
	scanner := rasterx.NewScannerGV(n, n, img, img.Bounds())
	icon.Draw(rasterx.NewDasher(n, n, scanner), 1)
	return img, nil
}

func writePNG(path string, img image.Image) error {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return fmt.Errorf("encoding %s: %w", path, err)
	}
	return writeFile(path, b.Bytes())
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", filepath.Dir(path), err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
