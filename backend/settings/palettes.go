package settings

// Palette is a terminal colour set: the default foreground and background,
// the cursor, the selection, and the 16 ANSI colours (black, red, green,
// yellow, blue, magenta, cyan, white, then their bright forms).
type Palette struct {
	ID         string     `json:"id"`
	Name       string     `json:"name"`
	Dark       bool       `json:"dark"`
	Foreground string     `json:"foreground"`
	Background string     `json:"background"`
	Cursor     string     `json:"cursor"`
	Selection  string     `json:"selection"` // may carry alpha (#rrggbbaa)
	ANSI       [16]string `json:"ansi"`
}

// DefaultPalette matches the app's own (dark) theme and the colours panes
// had before palettes existed: xterm.js's ANSI set on the app's background.
const DefaultPalette = "osfoundry-dark"

var solarizedANSI = [16]string{
	"#073642", "#dc322f", "#859900", "#b58900", "#268bd2", "#d33682", "#2aa198", "#eee8d5",
	"#002b36", "#cb4b16", "#586e75", "#657b83", "#839496", "#6c71c4", "#93a1a1", "#fdf6e3",
}

// TerminalPalettes are the built-in palettes, the app's own first.
var TerminalPalettes = []Palette{
	{ID: DefaultPalette, Name: "osFoundry Dark (the app's theme)", Dark: true,
		Foreground: "#e4e4e7", Background: "#141417", Cursor: "#e4e4e7", Selection: "#52525b99",
		ANSI: [16]string{
			"#2e3436", "#cc0000", "#4e9a06", "#c4a000", "#3465a4", "#75507b", "#06989a", "#d3d7cf",
			"#555753", "#ef2929", "#8ae234", "#fce94f", "#729fcf", "#ad7fa8", "#34e2e2", "#eeeeec",
		}},
	{ID: "osfoundry-light", Name: "osFoundry Light",
		Foreground: "#27272a", Background: "#fafafa", Cursor: "#27272a", Selection: "#93c5fd88",
		ANSI: [16]string{
			"#27272a", "#c01c28", "#26a269", "#a2734c", "#12488b", "#a347ba", "#2aa1b3", "#d0cfcc",
			"#5e5c64", "#f66151", "#33d17a", "#e9ad0c", "#2a7bde", "#c061cb", "#33c7de", "#ffffff",
		}},
	{ID: "solarized-dark", Name: "Solarized Dark", Dark: true,
		Foreground: "#839496", Background: "#002b36", Cursor: "#93a1a1", Selection: "#073642", ANSI: solarizedANSI},
	{ID: "solarized-light", Name: "Solarized Light",
		Foreground: "#657b83", Background: "#fdf6e3", Cursor: "#586e75", Selection: "#eee8d5", ANSI: solarizedANSI},
	{ID: "dracula", Name: "Dracula", Dark: true,
		Foreground: "#f8f8f2", Background: "#282a36", Cursor: "#f8f8f2", Selection: "#44475a",
		ANSI: [16]string{
			"#21222c", "#ff5555", "#50fa7b", "#f1fa8c", "#bd93f9", "#ff79c6", "#8be9fd", "#f8f8f2",
			"#6272a4", "#ff6e6e", "#69ff94", "#ffffa5", "#d6acff", "#ff92df", "#a4ffff", "#ffffff",
		}},
}

// FindPalette returns the built-in palette id names.
func FindPalette(id string) (Palette, bool) {
	for _, p := range TerminalPalettes {
		if p.ID == id {
			return p, true
		}
	}
	return Palette{}, false
}
