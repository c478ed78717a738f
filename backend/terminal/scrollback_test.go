//go:build !windows

package terminal

import (
	"bytes"
	"strings"
	"testing"
)

func TestSanitizeScrollbackKeepsTextAndDropsWhatActs(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"text and colours", "$ ls\r\n\x1b[1;34mdir\x1b[0m  file\r\n", "$ ls\r\n\x1b[1;34mdir\x1b[0m  file\r\n"},
		{"cursor movement", "50%\x1b[3D75%\x1b[2K\r\x1b[1Adone\n", "50%\x1b[3D75%\x1b[2K\r\x1b[1Adone\n"},
		{"clipboard and title", "a\x1b]52;c;c2VjcmV0\x07b\x1b]0;title\x1b\\c", "abc"},
		{"device string", "a\x1bP+q544e\x1b\\b", "ab"},
		{"mouse, paste and cursor modes", "\x1b[?1000h\x1b[?2004h\x1b[?25lx\x1b[2 q", "x"},
		{"alternate screen drawing", "before\r\n\x1b[?1049h\x1b[Hvim screen\x1b[?1049lafter", "before\r\nafter"},
		{"erasing the scrollback and resets", "a\x1b[3J\x1bc\x1b[2Jb", "a\x1b[2Jb"},
		{"queries and bells", "a\x1b[6n\x1b[c\x07b", "ab"},
		{"line drawing", "\x1b(0qqq\x1b(B", "\x1b(0qqq\x1b(B"},
		{"unfinished sequence", "ok\x1b[38;5", "ok"},
		{"unicode", "✓ π ⏵⏵\r\n", "✓ π ⏵⏵\r\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(SanitizeScrollback([]byte(tc.in))); got != tc.want {
				t.Fatalf("SanitizeScrollback(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestTrimScrollbackBoundsLinesAndBytes(t *testing.T) {
	var b bytes.Buffer
	for i := range 100 {
		b.WriteString(strings.Repeat("x", 9) + string(rune('a'+i%26)) + "\r\n") // 12 bytes a line
	}
	all := b.Bytes()
	if got := TrimScrollback(all, 10, 1<<20); bytes.Count(got, []byte("\n")) != 10 || !bytes.HasSuffix(all, got) {
		t.Fatalf("10 lines: got %d lines", bytes.Count(got, []byte("\n")))
	}
	got := TrimScrollback(all, 1000, 100)
	if len(got) > 100 || len(got)%12 != 0 || !bytes.HasSuffix(all, got) {
		t.Fatalf("100 bytes: got %d bytes %q, want whole lines from the end within 100", len(got), got)
	}
	if got := TrimScrollback(all, 1000, 1<<20); !bytes.Equal(got, all) {
		t.Fatal("output under both bounds should be kept whole")
	}
}

// A restored pane's views draw the saved output, then the new program's
// on a fresh screen; what is kept next time holds both, old first.
func TestRestoredOutputComesBeforeTheNewProgram(t *testing.T) {
	p, err := Start(Options{Dir: t.TempDir(), Argv: []string{"/bin/sh", "-c", "echo new-session-line; sleep 30"}, Env: shellEnv(),
		Cols: 80, Rows: 24, Restored: []byte("old-line-1\r\n\x1b]52;c;eA==\x07old-line-2\r\n"), Notice: "restored banner"})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	waitFor(t, "the new output", func() bool { return strings.Contains(strings.Join(p.Screen().Lines, "\n"), "new-session-line") })
	if got := p.Screen().Lines[0]; got != "restored banner" {
		t.Fatalf("screen line 1 = %q, want the banner (the emulator never sees the old text)", got)
	}
	_, restored, data := p.attachment()
	if r := string(restored); !strings.HasPrefix(r, "old-line-1\r\nold-line-2") || strings.Contains(r, "\x1b]52") {
		t.Fatalf("restored %q: want the old text without its clipboard write", r)
	}
	if s := string(data); !strings.HasPrefix(s, "\x1b[2mrestored banner") || !strings.Contains(s, "new-session-line") || strings.Contains(s, "old-line") {
		t.Fatalf("snapshot %q: want the banner, then the new output, and none of the old", s)
	}
	gen, kept := p.scrollback(1000)
	k := string(kept)
	if gen == 0 || !strings.HasPrefix(k, "old-line-1\r\nold-line-2") || !strings.Contains(k, "new-session-line") {
		t.Fatalf("kept %q (gen %d): want the old lines then the new output", k, gen)
	}
	if _, two := p.scrollback(2); strings.Contains(string(two), "old-line") {
		t.Fatalf("kept with a 2-line bound: %q, want only the newest lines", two)
	}
}
