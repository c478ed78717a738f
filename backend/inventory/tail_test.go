package inventory

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// readTailBackward passes every complete line of the last TailBytes,
// newest first, whatever the chunk boundaries, and drops the cut first
// piece of a longer file; the whole of a shorter one, first line included.
func TestReadTailBackwardLines(t *testing.T) {
	for _, c := range []struct {
		name  string
		lines int
		width int
	}{
		{"short file, whole", 5, 10},
		{"lines across the first chunks", 3000, 37},
		{"longer than the window", 40000, 29},
		{"lines longer than a chunk", 60, 20000},
	} {
		t.Run(c.name, func(t *testing.T) {
			var all []string
			var b strings.Builder
			for i := range c.lines {
				l := fmt.Sprintf("%06d:%s", i, strings.Repeat("x", c.width))
				all = append(all, l)
				b.WriteString(l + "\n")
			}
			p := filepath.Join(t.TempDir(), "t.jsonl")
			if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var got []string
			if err := readTailBackward(f, int64(b.Len()), func(l []byte) bool { got = append(got, string(l)); return true }); err != nil {
				t.Fatal(err)
			}
			slices.Reverse(got)
			want := all
			if b.Len() > TailBytes {
				// the window's first piece is cut and never passed
				n := 0
				for i := len(all) - 1; i >= 0 && n+len(all[i])+1 <= TailBytes; i-- {
					n += len(all[i]) + 1
					want = all[i:]
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("got %d lines (first %.20q), want %d (first %.20q)", len(got), first(got), len(want), first(want))
			}
			// Stopping early stops at once.
			var n int
			readTailBackward(f, int64(b.Len()), func([]byte) bool { n++; return n < 3 })
			if n != min(3, len(want)) {
				t.Fatalf("fn called %d times after asking to stop at 3", n)
			}
		})
	}
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// TestLastNewline compares lastNewline with bytes.LastIndexByte on every
// prefix of texts whose lines are shorter, around and longer than its
// eight-byte and block steps, and on bytes one off '\n' that its word test
// could take for one.
func TestLastNewline(t *testing.T) {
	check := func(b []byte) {
		t.Helper()
		for end := len(b); end >= 0; end-- {
			if got, want := lastNewline(b[:end]), bytes.LastIndexByte(b[:end], '\n'); got != want {
				t.Fatalf("lastNewline(%d bytes) = %d, want %d", end, got, want)
			}
		}
	}
	for _, n := range []int{0, 1, 7, 8, 9, 127, 128, 129, 255, 256, 257, 3000, 20000} {
		line := append(bytes.Repeat([]byte{'x'}, n), '\n')
		check(bytes.Repeat(line, max(3, 40000/len(line))))
	}
	check([]byte("a\n\x0b\x0b\x0b\x0bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"))
	check(bytes.Repeat([]byte{'x'}, 50000))
}
