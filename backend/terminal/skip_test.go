package terminal

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/hinshun/vt10x"
)

// Skipping scrolled-off text must never change the visible screen: compare
// against vt10x fed every byte, on random bursts of plain and non-plain
// output, split into random reads.
func TestSkipScrolledOffMatchesFullEmulation(t *testing.T) {
	pieces := []func(r *rand.Rand) string{
		func(r *rand.Rand) string {
			return fmt.Sprintf("line %d %s\r\n", r.Intn(1e6), strings.Repeat("x", r.Intn(200)))
		},
		func(r *rand.Rand) string {
			return fmt.Sprintf("\x1b[3%dmcolour\x1b[0m \x1b[1m日本語\x1b[m\r\n", r.Intn(8))
		},
		func(r *rand.Rand) string {
			return fmt.Sprintf("\r\x1b[2K[%s] %d%%", strings.Repeat("#", r.Intn(40)), r.Intn(100))
		},
		func(r *rand.Rand) string { return fmt.Sprintf("\x1b[%dGcol\x1b[K\t|\b!\r\n", 1+r.Intn(60)) },
		func(r *rand.Rand) string { return "\x1b[31;1mpen left on " }, // pen carried across the cut
		func(r *rand.Rand) string { return fmt.Sprintf("\x1b[%d;%dHmoved", 1+r.Intn(12), 1+r.Intn(40)) },
		func(r *rand.Rand) string { return "\x1b[3;8r" }, // partial scroll region
		func(r *rand.Rand) string { return "\x1b[r" },
		func(r *rand.Rand) string { return "\x1b[2J\x1b[H" },
		func(r *rand.Rand) string { return "no newline\n" },
	}
	for seed := int64(1); seed <= 40; seed++ {
		r := rand.New(rand.NewSource(seed))
		var sb strings.Builder
		// Start with the cursor at the top: the skipped prefix begins on row 0.
		sb.WriteString("\x1b[2J\x1b[Hstale top row that must scroll away with the rest")
		cols, rows := 40+r.Intn(80), 5+r.Intn(30)
		if seed%4 == 0 {
			// Autowrap off: a 40 KB line stays on one row, followed by
			// fewer than 2×rows lines — the cursor is near the top where a
			// cut could fall, and a cut there would leave stale rows.
			// The rows below hold junk that short lines only partly cover.
			for i := 0; i < rows; i++ {
				sb.WriteString("\r\n" + strings.Repeat("#", cols-1))
			}
			sb.WriteString("\x1b[?7l\x1b[H" + strings.Repeat("w", 40<<10) + "\r\n")
			for i := 0; i < rows+r.Intn(rows-1); i++ {
				fmt.Fprintf(&sb, "short %d\r\n", i)
			}
		}
		for seed%4 != 0 && sb.Len() < 300<<10 {
			k := r.Intn(len(pieces))
			if k >= 5 && r.Intn(1500) != 0 { // non-plain pieces are rare, as in real output
				k = r.Intn(5)
			}
			sb.WriteString(pieces[k](r))
		}
		in := []byte(sb.String())
		ref := vt10x.New(vt10x.WithSize(cols, rows))
		ref.Write(cellText(in, nil)) // the same cell widths the emulator gives vt10x
		e := NewEmulator(cols, rows)
		for off := 0; off < len(in); {
			n := min(len(in)-off, 1+r.Intn(64<<10))
			e.Write(in[off : off+n])
			off += n
		}
		got := e.Lines()
		for y := 0; y < rows; y++ {
			var want strings.Builder
			for x := 0; x < cols; x++ {
				c := ref.Cell(x, y).Char
				switch c {
				case widePad:
					continue
				case 0:
					c = ' '
				}
				want.WriteRune(c)
			}
			if w := strings.TrimRight(want.String(), " "); got[y] != w {
				t.Fatalf("seed %d (%dx%d) row %d:\n got %q\nwant %q", seed, cols, rows, y, got[y], w)
			}
			for x := 0; x < cols; x++ {
				if g, w := e.vt.Cell(x, y), ref.Cell(x, y); g.FG != w.FG || g.BG != w.BG || g.Mode != w.Mode {
					t.Fatalf("seed %d row %d col %d: attributes %+v, want %+v", seed, y, x, g, w)
				}
			}
		}
		if gc, wc := e.vt.Cursor(), ref.Cursor(); gc.X != wc.X || gc.Y != wc.Y {
			t.Fatalf("seed %d: cursor %d,%d want %d,%d", seed, gc.X, gc.Y, wc.X, wc.Y)
		}
	}
}

// plainRun and appendPen take shortcuts (eight bytes at a time, walking
// back from the end); they must agree with the plain byte-by-byte reading.
func TestPlainRunAndPenMatchByteByByte(t *testing.T) {
	slowPlainRun := func(b []byte) int {
		start := 0
		for i := 0; i < len(b); i++ {
			c := b[i]
			if c >= 0x20 || c == '\r' || c == '\n' || c == '\t' || c == '\b' || c == '\a' {
				continue
			}
			if c == 0x1b {
				if end, _, ok := lineLocalEnd(b, i); ok {
					i = end - 1
					continue
				}
				i = seqEnd(b, i) - 1
			}
			start = i + 1
		}
		return min(start, len(b))
	}
	slowPen := func(p []byte) []byte {
		var sgrs [][2]int
		for i := 0; i < len(p); i++ {
			if p[i] != 0x1b {
				continue
			}
			end, final, ok := lineLocalEnd(p, i)
			if !ok || final != 'm' {
				continue
			}
			if params := string(p[i+2 : end-1]); params == "" || params == "0" {
				sgrs = sgrs[:0]
			}
			sgrs = append(sgrs, [2]int{i, end})
			i = end - 1
		}
		var out []byte
		for _, s := range sgrs {
			out = append(out, p[s[0]:s[1]]...)
		}
		return out
	}
	pieces := []string{"plain text ", "日本語 ", "\r\n", "\t", "\b", "\a", "\x0e", "\x00", "\x1b[0m", "\x1b[m",
		"\x1b[31m", "\x1b[0;32m", "\x1b[1;34m", "\x1b[2K", "\x1b[12G", "\x1b[3;4H", "\x1b7", "\x1b(B", "\x1b[?25l", "x"}
	for seed := int64(1); seed <= 500; seed++ {
		r := rand.New(rand.NewSource(seed))
		var b []byte
		for n := r.Intn(80); n > 0; n-- {
			b = append(b, pieces[r.Intn(len(pieces))]...)
		}
		if got, want := plainRun(b), slowPlainRun(b); got != want {
			t.Fatalf("seed %d: plainRun(%q) = %d, want %d", seed, b, got, want)
		}
		run := b[slowPlainRun(b):]
		if got, want := appendPen(nil, run), slowPen(run); string(got) != string(want) {
			t.Fatalf("seed %d: appendPen(%q) = %q, want %q", seed, run, got, want)
		}
	}
}
