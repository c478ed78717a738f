package teamsessions

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"net/http"
)

// iconPNG draws the page's app icon (the SVG's ring and dot) at size×size:
// phones want PNG icons to install the page (Android's 192 and 512, iOS's
// apple-touch-icon), and a drawing needs no image files in the binary.
func iconPNG(size int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	bg := color.RGBA{0x1d, 0x27, 0x33, 0xff}
	ring := color.RGBA{0xd9, 0x82, 0x2b, 0xff}
	c := float64(size) / 2
	outer, inner, dot := 0.36*float64(size), 0.26*float64(size), 0.085*float64(size)
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			dx, dy := float64(x)+0.5-c, float64(y)+0.5-c
			d2 := dx*dx + dy*dy
			switch {
			case d2 <= dot*dot:
				img.Set(x, y, color.White)
			case d2 <= outer*outer && d2 >= inner*inner:
				img.Set(x, y, ring)
			default:
				img.Set(x, y, bg)
			}
		}
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img) // writing to memory never fails
	return b.Bytes()
}

func pngIcon(size int) http.Handler {
	data := iconPNG(size)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Header().Set("Cache-Control", "public, max-age=86400")
		_, _ = w.Write(data)
	})
}
