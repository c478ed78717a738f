package terminal

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// vt10x gives every rune one cell. Real terminals give East Asian wide
// characters and most emoji two cells and zero-width marks (combining
// accents, variation selectors, joiners) none, so a line holding them wraps
// at a different column in vt10x and every row below shifts — measured on
// Qwen Code 0.24, whose "◆︎" carries U+FE0E: 2 of 90 recorded screens
// differed from tmux. Before text reaches vt10x, zero-width runes are
// dropped and each wide rune is followed by widePad, a placeholder filling
// its second cell that the screen readers skip.

// widePad marks the second cell of a wide character (a noncharacter: it
// never occurs in real output).
const widePad = '\U0010FFFE'

// runeWidth is the number of cells a terminal gives r.
func runeWidth(r rune) int {
	switch {
	case r < 0x300:
		return 1
	case r == 0x200B || r == 0x200C || r == 0x200D || r == 0x2060 || r == 0xFEFF:
		return 0
	case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r):
		return 0 // combining marks and variation selectors (FE00–FE0F)
	case r >= 0x1F300 && r <= 0x1F64F, r >= 0x1F900 && r <= 0x1F9FF, r >= 0x1FA70 && r <= 0x1FAFF:
		return 2 // pictographs and emoji with emoji presentation
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// cellText rewrites the non-ASCII runes of b for vt10x (see above). ASCII
// input — the common case — is returned as is.
func cellText(b []byte, dst []byte) []byte {
	i := 0
	for i < len(b) && b[i] < utf8.RuneSelf {
		i++
	}
	if i == len(b) {
		return b
	}
	dst = append(dst[:0], b[:i]...)
	for i < len(b) {
		c := b[i]
		if c < utf8.RuneSelf {
			dst = append(dst, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			dst = append(dst, c) // invalid byte: vt10x skips it itself
			i++
			continue
		}
		switch runeWidth(r) {
		case 0:
		case 2:
			dst = append(dst, b[i:i+n]...)
			dst = utf8.AppendRune(dst, widePad)
		default:
			dst = append(dst, b[i:i+n]...)
		}
		i += n
	}
	return dst
}
