package terminal

// Skipping output that scrolls off before anyone can see it.
//
// vt10x costs about 100 ns per rune (it formats a debug string for every
// rune even with logging off), which caps a pane near 12 MB/s while a raw
// PTY drains 90+ MB/s. But the emulator only has to be right about the
// visible screen: when a burst is plain text (printable runes, CR, LF, TAB,
// BS, BEL and SGR colour changes) in a full-screen scroll region and holds
// more than twice as many line feeds as the screen has rows (line-local sequences — erase
// in line, column moves, insert/delete characters — count as plain text:
// they cannot touch another row), everything before the last
// `rows` lines scrolls off and leaves no trace except the colour pen. Such
// a prefix is replaced by its colour changes and `rows` CR LFs (which push
// the old screen off exactly as the skipped lines would have); the rest is
// emulated normally. Any other sequence (cursor moves, erases, modes) ends
// the plain run, so nothing that positions text is ever skipped.

import (
	"bytes"
	"encoding/binary"
)

// skipMin is the smallest prefix worth skipping; below it the emulator is
// fast enough and the bookkeeping costs more than it saves.
const skipMin = 32 << 10

// plainRun returns where the trailing plain-text run of b starts.
func plainRun(b []byte) int {
	start := 0
	for i := 0; i < len(b); i++ {
		// Eight bytes at a time while none is a control byte: a flush scans
		// up to a MiB here, and byte by byte this was 7 % of a pane's CPU in
		// BenchmarkPaneDrain.
		for i+8 <= len(b) && !hasControl(binary.LittleEndian.Uint64(b[i:])) {
			i += 8
		}
		if i >= len(b) {
			break
		}
		c := b[i]
		if c >= 0x20 || c == '\r' || c == '\n' || c == '\t' || c == '\b' || c == '\a' {
			continue
		}
		if c == 0x1b {
			if end, _, ok := lineLocalEnd(b, i); ok {
				i = end - 1
				continue
			}
			// Any other sequence ends the run; the run restarts after the
			// whole sequence, never inside its parameters.
			i = seqEnd(b, i) - 1
		}
		start = i + 1
	}
	return min(start, len(b))
}

// hasControl reports whether any byte of x is below 0x20.
func hasControl(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	return (x-0x20*ones)&^x&highs != 0
}

// seqEnd returns the end of the escape sequence starting at b[i] (ESC):
// CSI up to its final byte, ESC + intermediates + final otherwise.
func seqEnd(b []byte, i int) int {
	j := i + 1
	if j < len(b) && b[j] == '[' {
		for j++; j < len(b); j++ {
			if b[j] >= 0x40 && b[j] <= 0x7e {
				return j + 1
			}
		}
		return len(b)
	}
	for ; j < len(b); j++ {
		if b[j] >= 0x30 && b[j] <= 0x7e {
			return j + 1
		}
	}
	return len(b)
}

// lineLocalEnd reports whether b[i:] starts with a CSI sequence whose
// effect stays on the cursor's row — SGR (m), erase in line (K), erase or
// delete or insert characters (X, P, @), column moves (G, C, D, `) — and
// returns where it ends and its final byte.
func lineLocalEnd(b []byte, i int) (int, byte, bool) {
	j := i + 1
	if j >= len(b) || b[j] != '[' {
		return 0, 0, false
	}
	for j++; j < len(b); j++ {
		c := b[j]
		switch c {
		case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', ';', ':':
		case 'm', 'K', 'X', 'P', '@', 'G', 'C', 'D', '`':
			return j + 1, c, true
		default:
			return 0, 0, false
		}
	}
	return 0, 0, false
}

// skipScrolledOff rewrites b (emulator-bound bytes) so that a plain-text
// prefix that would scroll off a rows-high screen is not emulated. It
// returns b unchanged when nothing can be skipped.
func skipScrolledOff(b []byte, rows int, dst []byte) []byte {
	if len(b) < skipMin {
		return b
	}
	start := plainRun(b)
	run := b[start:]
	// Find the cut: just after a CR LF that still has 2×rows line feeds
	// after it. The cursor's row at the cut is unknown; up to rows-1 of
	// those line feeds may only move it down, and the remaining ≥ rows
	// scroll everything written before the cut off the screen.
	lfs := 0
	cut := -1
	for i := len(run) - 1; i >= 1; i-- {
		if run[i] != '\n' {
			continue
		}
		if lfs >= 2*rows && run[i-1] == '\r' {
			cut = i + 1
			break
		}
		lfs++
	}
	if cut < skipMin {
		return b
	}
	dst = append(dst[:0], b[:start]...)
	dst = appendPen(dst, run[:cut])
	for i := 0; i < rows; i++ {
		dst = append(dst, '\r', '\n')
	}
	return append(dst, run[cut:]...)
}

// appendPen appends the SGR sequences of p that still matter at its end:
// those from the last full reset on. It walks back from the end: output
// resets its colours every line or so, and scanning the whole MiB forward
// was 9 % of a pane's CPU in BenchmarkPaneDrain. Every ESC in p starts a
// sequence (p is emulator-bound text from a plain run), so walking back
// from ESC to ESC finds the same sequences as reading forward.
func appendPen(dst, p []byte) []byte {
	var sgrs [][2]int // newest first
	for end := len(p); end > 0; {
		i := bytes.LastIndexByte(p[:end], 0x1b)
		if i < 0 {
			break
		}
		end = i
		e, final, ok := lineLocalEnd(p, i)
		if !ok || final != 'm' {
			continue
		}
		sgrs = append(sgrs, [2]int{i, e})
		if params := p[i+2 : e-1]; len(params) == 0 || (len(params) == 1 && params[0] == '0') {
			break
		}
	}
	for k := len(sgrs) - 1; k >= 0; k-- {
		dst = append(dst, p[sgrs[k][0]:sgrs[k][1]]...)
	}
	return dst
}
