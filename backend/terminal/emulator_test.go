package terminal

import (
	"bytes"
	"testing"
)

func TestEmulatorFilter(t *testing.T) {
	cases := []struct {
		name    string
		in      string
		line0   string // expected first row
		replies string
		ui      string // expected UI bytes ("" = don't check)
	}{
		{"plain", "hello", "hello", "", "hello"},
		{"kitty query is not restore-cursor", "ab\x1b[s\x1b[5G\x1b[?ucd", "ab  cd", "", "ab\x1b[s\x1b[5Gcd"},
		{"kitty push/pop dropped", "\x1b[>1u\x1b[<uX", "X", "", "X"},
		{"DA1 answered once, not drawn", "\x1b[cok", "ok", "\x1b[?62;22c", "ok"},
		{"DSR cursor answered from the emulator", "abc\x1b[6n", "abc", "\x1b[1;4R", "abc"},
		{"status probe answered", "\x1b]7501;?\x07x", "x", StatusProbeAnswer, "x"},
		{"background colour query", "\x1b]11;?\x1b\\y", "y", "\x1b]11;rgb:1e1e/1e1e/1e1e\x1b\\", "y"},
		{"title passes to UI only", "\x1b]0;✳ Working\x07z", "z", "", "\x1b]0;✳ Working\x07z"},
		{"clipboard write never reaches UI", "\x1b]52;c;aGk=\x07w", "w", "", "w"},
		{"cursor style to UI only", "\x1b[2 qv", "v", "", "\x1b[2 qv"},
		{"DCS query dropped", "\x1bP+q544e\x1b\\u", "u", "", "u"},
		{"cursor moves position words", "\x1b[5Gworld\r\x1b[1Ghi", "hi  world", "", ""},
		{"invalid utf-8 survives", "a\xff\xfeb", "ab", "", ""},
		{"wide and combining: cells as a terminal counts them", "日本語 e\u0301 🎉\x1b[6n", "日本語 e 🎉", "\x1b[1;12R", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := NewEmulator(40, 5)
			var rep bytes.Buffer
			e.OnReply(func(b []byte) { rep.Write(b) })
			ui := e.Write([]byte(tc.in))
			if got := e.Lines()[0]; got != tc.line0 {
				t.Errorf("row 0: got %q, want %q", got, tc.line0)
			}
			if rep.String() != tc.replies {
				t.Errorf("replies: got %q, want %q", rep.String(), tc.replies)
			}
			if tc.ui != "" && string(ui) != tc.ui {
				t.Errorf("ui bytes: got %q, want %q", ui, tc.ui)
			}
		})
	}
}

// Sequences and runes split across reads at every byte must give the
// same screen as one write.
func TestEmulatorSplitWrites(t *testing.T) {
	in := []byte("\x1b[2J\x1b[3;5Hé日\x1b]0;title\x07\x1b[?ux\x1b[1;31mred\x1b[0m")
	whole := NewEmulator(20, 5)
	whole.Write(in)
	for cut := 1; cut < len(in); cut++ {
		e := NewEmulator(20, 5)
		e.Write(in[:cut])
		e.Write(in[cut:])
		if got, want := e.Text(), whole.Text(); got != want {
			t.Fatalf("split at %d: got %q want %q", cut, got, want)
		}
		if e.Title() != "title" {
			t.Fatalf("split at %d: title %q", cut, e.Title())
		}
	}
}

func TestEmulatorRepaintRoundTrip(t *testing.T) {
	src := NewEmulator(30, 6)
	src.Write([]byte("line one\r\n\x1b[1;32mgreen\x1b[0m\r\n\x1b[4;10Hplaced\x1b[2;3H"))
	dst := NewEmulator(30, 6)
	dst.Write([]byte("garbage that must vanish\r\nmore"))
	dst.Write(src.Repaint())
	if got, want := dst.Text(), src.Text(); got != want {
		t.Fatalf("repaint: got\n%s\nwant\n%s", got, want)
	}
}

func TestEmulatorBadSizes(t *testing.T) {
	for _, sz := range [][2]int{{1, 1}, {0, 0}, {-5, 3}, {500, 200}, {5000, 5000}} {
		e := NewEmulator(sz[0], sz[1])
		e.Write([]byte("日本語🎉 overflowing text \x1b[999;999Hend"))
		c, r := e.Size()
		if c < MinCols || r < MinRows || c > MaxCols || r > MaxRows {
			t.Fatalf("size %v not clamped: %dx%d", sz, c, r)
		}
		if len(e.Lines()) != r {
			t.Fatalf("size %v: %d lines for %d rows", sz, len(e.Lines()), r)
		}
	}
}

// The queue's buffer is reused after every flush: wide runes emulated
// after ASCII-only output must come out whole, not overwritten by the
// padding of the rune before them.
func TestEmulatorWideRunesAfterASCIIFlush(t *testing.T) {
	e := NewEmulator(40, 3)
	e.Write([]byte("abc\r\n"))
	e.Lines()
	e.Write([]byte("日本語 and 🎉 more"))
	if got := e.Lines()[1]; got != "日本語 and 🎉 more" {
		t.Fatalf("row 1: got %q", got)
	}
}
