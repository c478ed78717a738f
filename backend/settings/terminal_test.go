package settings

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSetTerminalRefusesInvalidValuesAndSavesNothing(t *testing.T) {
	ok := DefaultTerminal()
	cases := []struct {
		name   string
		change func(*TerminalPrefs)
		want   string // part of the message; "" when accepted
	}{
		{"defaults", func(*TerminalPrefs) {}, ""},
		{"largest values", func(p *TerminalPrefs) {
			p.FontSize, p.LineHeight, p.Scrollback, p.CursorStyle, p.Palette = 32, 2, 100_000, "underline", "dracula"
		}, ""},
		{"empty font", func(p *TerminalPrefs) { p.FontFamily = "  " }, "Font family is empty"},
		{"css in the font", func(p *TerminalPrefs) { p.FontFamily = "Mono; color: red" }, "font names, quotes and commas only"},
		{"unclosed quote", func(p *TerminalPrefs) { p.FontFamily = `"Fira Code, monospace` }, "unclosed quote"},
		{"tiny font", func(p *TerminalPrefs) { p.FontSize = 7 }, "Font size must be a whole number from 8 to 32 px."},
		{"huge font", func(p *TerminalPrefs) { p.FontSize = 33 }, "from 8 to 32"},
		{"line height", func(p *TerminalPrefs) { p.LineHeight = 2.5 }, "Line height must be from 1.0 to 2.0."},
		{"cursor", func(p *TerminalPrefs) { p.CursorStyle = "beam" }, "Cursor style must be block, bar or underline."},
		{"scrollback low", func(p *TerminalPrefs) { p.Scrollback = 999 }, "Scrollback must be from 1,000 to 100,000 lines."},
		{"scrollback high", func(p *TerminalPrefs) { p.Scrollback = 100_001 }, "100,000"},
		{"palette", func(p *TerminalPrefs) { p.Palette = "neon" }, `Unknown colour palette "neon"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			s, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			in := ok
			tc.change(&in)
			got, err := s.SetTerminal(in)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("SetTerminal(%+v): %v", in, err)
				}
				again, _ := Open(dir)
				if again.Get().Terminal != in {
					t.Fatalf("after a restart terminal = %+v, want %+v", again.Get().Terminal, in)
				}
				return
			}
			if !errors.Is(err, ErrInvalidTerminal) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("SetTerminal(%+v) = %v, want ErrInvalidTerminal saying %q", in, err, tc.want)
			}
			if got.Terminal != ok {
				t.Fatalf("a refused change returned %+v, want the unchanged %+v", got.Terminal, ok)
			}
			if _, err := os.Stat(filepath.Join(dir, FileName)); !os.IsNotExist(err) {
				t.Fatalf("a refused change wrote the settings file (stat: %v)", err)
			}
		})
	}
}

func TestTerminalDefaultsForOldAndDamagedFiles(t *testing.T) {
	dir := t.TempDir()
	// A file from before the setting: every terminal field is the default.
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(`{"notifications": false}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Get().Terminal != DefaultTerminal() {
		t.Fatalf("terminal = %+v, want the defaults", s.Get().Terminal)
	}
	// A hand-edited size out of range: the defaults, and an error that says why.
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(`{"notifications": false, "terminal": {"fontSize": 300}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err = Open(dir)
	if err == nil || !strings.Contains(err.Error(), "Font size") {
		t.Fatalf("Open = %v, want an error naming the font size", err)
	}
	if p := s.Get(); p.Terminal != DefaultTerminal() || p.Notifications {
		t.Fatalf("prefs = %+v, want terminal defaults and the saved notifications off", p)
	}
}

func TestEveryPaletteIsComplete(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range TerminalPalettes {
		if seen[p.ID] || p.Name == "" {
			t.Errorf("palette %q: duplicate id or no name", p.ID)
		}
		seen[p.ID] = true
		for i, c := range append([]string{p.Foreground, p.Background, p.Cursor, p.Selection}, p.ANSI[:]...) {
			if !strings.HasPrefix(c, "#") || (len(c) != 7 && len(c) != 9) {
				t.Errorf("palette %s colour %d = %q, want #rrggbb or #rrggbbaa", p.ID, i, c)
			}
		}
	}
	if !seen[DefaultPalette] {
		t.Fatalf("the default palette %q is not built in", DefaultPalette)
	}
}
