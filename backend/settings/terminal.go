package settings

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// TerminalPrefs are how the Terminal screen draws panes (Settings →
// Terminal). Every open pane follows a change at once; Scrollback and
// KeepScrollback also bound what the backend keeps of a pane's output
// across restarts (backend/terminal).
type TerminalPrefs struct {
	// FontFamily is the person's CSS font list; the app always appends
	// its symbol font and monospace (TerminalFallback) after it.
	FontFamily  string  `json:"fontFamily"`
	FontSize    int     `json:"fontSize"`   // px
	LineHeight  float64 `json:"lineHeight"` // a multiple of the font's height
	CursorStyle string  `json:"cursorStyle"`
	CursorBlink bool    `json:"cursorBlink"`
	Scrollback  int     `json:"scrollback"` // lines a pane keeps
	Palette     string  `json:"palette"`    // a TerminalPalettes id
	// KeepScrollback: each pane's recent output is kept in the app's
	// database when the app quits and shown again when the pane is restored.
	KeepScrollback bool `json:"keepScrollback"`
}

// EventTerminal is emitted with the saved TerminalPrefs after every saved
// change, so each open pane view follows whoever made it.
const EventTerminal = "settings:terminal"

// Bounds of the terminal settings, as the Settings screen states them.
const (
	MinFontSize, MaxFontSize     = 8, 32
	MinLineHeight, MaxLineHeight = 1.0, 2.0
	MinScrollback, MaxScrollback = 1_000, 100_000
	maxFontFamily                = 200
)

// CursorStyles are the cursor shapes xterm.js draws.
var CursorStyles = []string{"block", "bar", "underline"}

// TerminalFallback follows the person's font list: the app's own symbol
// font draws what common monospace fonts lack (Claude Code's ⏵⏵). The
// pane views append it (frontend/src/lib/terminalPrefs.ts, fallback).
const TerminalFallback = `"osFoundry Symbols", monospace`

// DefaultTerminal is what panes looked like before the setting existed.
func DefaultTerminal() TerminalPrefs {
	return TerminalPrefs{
		FontFamily:     `ui-monospace, "DejaVu Sans Mono", Menlo, Consolas`,
		FontSize:       13,
		LineHeight:     1.0,
		CursorStyle:    "block",
		CursorBlink:    false,
		Scrollback:     5000,
		Palette:        DefaultPalette,
		KeepScrollback: true,
	}
}

// ErrInvalidTerminal wraps every refusal of SetTerminal; the message says
// which field is wrong and what it accepts.
var ErrInvalidTerminal = errors.New("invalid terminal setting")

// Check says what is wrong with t, one sentence per field, or nil.
func (t TerminalPrefs) Check() error {
	var errs []string
	fam := strings.TrimSpace(t.FontFamily)
	switch {
	case fam == "":
		errs = append(errs, `Font family is empty: name at least one font, e.g. "DejaVu Sans Mono".`)
	case len(fam) > maxFontFamily:
		errs = append(errs, fmt.Sprintf("Font family is too long: at most %d characters.", maxFontFamily))
	case strings.ContainsAny(fam, ";{}<>\\\n\r\t"):
		errs = append(errs, "Font family may hold font names, quotes and commas only.")
	case strings.Count(fam, `"`)%2 != 0 || strings.Count(fam, "'")%2 != 0:
		errs = append(errs, "Font family has an unclosed quote.")
	}
	if t.FontSize < MinFontSize || t.FontSize > MaxFontSize {
		errs = append(errs, fmt.Sprintf("Font size must be a whole number from %d to %d px.", MinFontSize, MaxFontSize))
	}
	if !(t.LineHeight >= MinLineHeight && t.LineHeight <= MaxLineHeight) {
		errs = append(errs, "Line height must be from 1.0 to 2.0.")
	}
	if !slices.Contains(CursorStyles, t.CursorStyle) {
		errs = append(errs, "Cursor style must be block, bar or underline.")
	}
	if t.Scrollback < MinScrollback || t.Scrollback > MaxScrollback {
		errs = append(errs, "Scrollback must be from 1,000 to 100,000 lines.")
	}
	if _, ok := FindPalette(t.Palette); !ok {
		errs = append(errs, fmt.Sprintf("Unknown colour palette %q: choose one from the list.", t.Palette))
	}
	if len(errs) > 0 {
		return fmt.Errorf("%w: %s", ErrInvalidTerminal, strings.Join(errs, " "))
	}
	return nil
}

// SetTerminal checks and saves the terminal settings; invalid ones are
// refused with ErrInvalidTerminal and nothing is saved.
func (s *Store) SetTerminal(t TerminalPrefs) (Prefs, error) {
	t.FontFamily = strings.TrimSpace(t.FontFamily)
	if err := t.Check(); err != nil {
		return s.Get(), err
	}
	return s.update(func(p *Prefs) { p.Terminal = t })
}
