package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// safe makes text from a file or another program fit for a terminal and
// for one row: a session file controls titles, folders, branches, ids and
// transcript text, and printed raw an escape sequence in one of them could
// set the clipboard (OSC 52), the window title, clear the screen or forge
// rows. Control characters, bidirectional overrides and invalid UTF-8 are
// shown escaped (\n, \x1b, \u202e, \xff); everything else is kept. JSON
// output never goes through here: it stays exact, with jsonSafe's escapes.
func safe(s string) string { return escapeTerminal(s, false) }

// safeText is safe for text of several lines an agent wrote (an answer, a
// diff summary): line breaks and tabs stay, every other control is shown
// escaped as safe does.
func safeText(s string) string { return escapeTerminal(s, true) }

func escapeTerminal(s string, lines bool) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && !(lines && (c == '\n' || c == '\t'))) || c == 0x7f || c >= 0x80 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case lines && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case bidiControl(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// bidiControl: characters that reorder what follows them on screen.
func bidiControl(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x061c
}

// clip shortens s to at most n runes, never inside a character.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for k := 0; k < n; k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i] + "…"
}

// jsonSafe rewrites DEL and the C1 controls (U+0080–U+009F) of encoded
// JSON as \u escapes. encoding/json escapes only the C0 controls, yet a
// terminal takes a raw U+009B as CSI and U+009D as OSC just as it takes
// ESC [ and ESC ]: printed raw, a string in the JSON could still set the
// clipboard or the window title. The escapes decode to the same text, so
// the JSON stays exact. Outside strings JSON holds only ASCII punctuation,
// and encoding/json writes valid UTF-8, where 0xC2 followed by 0x80–0x9F
// is always one of these characters; the rewrite cannot split anything.
func jsonSafe(b []byte) []byte {
	var out []byte
	for i := 0; i < len(b); i++ {
		var r int
		switch {
		case b[i] == 0x7f:
			r = 0x7f
		case b[i] == 0xc2 && i+1 < len(b) && b[i+1] >= 0x80 && b[i+1] <= 0x9f:
			r = int(b[i+1])
		default:
			if out != nil {
				out = append(out, b[i])
			}
			continue
		}
		if out == nil {
			out = append(make([]byte, 0, len(b)+16), b[:i]...)
		}
		out = fmt.Appendf(out, `\u%04x`, r)
		if r != 0x7f {
			i++
		}
	}
	if out == nil {
		return b
	}
	return out
}

// writeJSON writes v as indented JSON with jsonSafe's escapes.
func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding JSON: %w", err)
	}
	_, err = w.Write(append(jsonSafe(b), '\n'))
	return err
}
