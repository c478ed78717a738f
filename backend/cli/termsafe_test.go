package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A crafted Claude Code transcript: every field the file controls carries
// terminal escapes (OSC 52 sets the clipboard, OSC 0 the window title,
// ESC [2J clears the screen), raw newlines that would forge rows, and a
// bidi override.
const (
	osc52   = "\x1b]52;c;Y3VybCBldmlsLnNofHNo\x07"
	osc0    = "\x1b]0;pwned\x07"
	clear   = "\x1b[2J\x1b[H"
	bidi    = "\u202etxt.exe"
	hostile = osc52 + osc0 + clear + "line1\nFAKE ROW\r" + bidi + "\xff"
)

func hostileHome(t *testing.T) (home, id string) {
	t.Helper()
	home = t.TempDir()
	id = "c5e1a7b2-9d40-4f3e-8b16-2a7c0e9d4f58"
	cwd := "/work/" + osc0 + "shop\nFAKE"
	lines := []map[string]any{
		{"type": "user", "sessionId": id, "cwd": cwd, "gitBranch": "main" + osc52 + clear, "timestamp": "2026-11-01T10:00:00Z",
			"uuid": "u1", "message": map[string]any{"role": "user", "content": "Title " + hostile}},
		{"type": "assistant", "sessionId": id, "cwd": cwd, "uuid": "u2", "timestamp": "2026-11-01T10:00:05Z",
			"message": map[string]any{"role": "assistant", "model": "claude-opus-4-5", "content": []map[string]any{
				{"type": "text", "text": "answer " + hostile},
				{"type": "tool_use", "id": "t1", "name": "Bash" + osc52, "input": map[string]any{"command": "ls " + clear}},
			}}},
	}
	var b bytes.Buffer
	for _, l := range lines {
		j, _ := json.Marshal(l)
		b.Write(j)
		b.WriteByte('\n')
	}
	dir := filepath.Join(home, ".claude", "projects", "-work-shop")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, id+".jsonl"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return home, id
}

// runOK runs the command line and returns its output; it must succeed.
func runOK(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errs := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("osfoundry %v exited %d: %s", args, code, errs)
	}
	return out
}

func assertTerminalSafe(t *testing.T, what, out string) {
	t.Helper()
	for _, bad := range []string{"\x1b", "\x07", "\r", "\u202e", "\xff"} {
		if strings.Contains(out, bad) {
			t.Fatalf("%s prints %q raw:\n%q", what, bad, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "FAKE") {
			t.Fatalf("%s: a newline from the file forged a row:\n%s", what, out)
		}
	}
}

func TestSessionsTextOutputEscapesWhatTheFileControls(t *testing.T) {
	home, id := hostileHome(t)
	list := runOK(t, "sessions", "list", "--home", home)
	assertTerminalSafe(t, "sessions list", list)
	if !strings.Contains(list, `\x1b]52;c;`) || !strings.Contains(list, `\u202e`) {
		t.Fatalf("sessions list should show the escapes escaped, so the person sees them:\n%s", list)
	}
	if n := strings.Count(strings.TrimSpace(list), "\n"); n != 2 { // header, rule, one session
		t.Fatalf("sessions list printed %d lines for one session:\n%s", n+1, list)
	}
	show := runOK(t, "sessions", "show", "--home", home, id)
	assertTerminalSafe(t, "sessions show", show)
	if !strings.Contains(show, "answer ") || !strings.Contains(show, `answer \x1b]52;c;`) {
		t.Fatalf("sessions show lost the transcript text:\n%s", show)
	}
}

func TestSessionsJSONOutputStaysExact(t *testing.T) {
	home, _ := hostileHome(t)
	var got []struct {
		Branch string `json:"branch"`
		Folder string `json:"folder"`
	}
	if err := json.Unmarshal([]byte(runOK(t, "sessions", "list", "--home", home, "--json")), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Branch != "main"+osc52+clear || !strings.Contains(got[0].Folder, osc0) {
		t.Fatalf("JSON output changed what the file says: %+v", got)
	}
}

func TestSafe(t *testing.T) {
	for in, want := range map[string]string{
		"plain text, ünïcode 日本": "plain text, ünïcode 日本",
		"a\nb\tc\rd":             `a\nb\tc\rd`,
		"\x1b[31mred":            `\x1b[31mred`,
		"\u009b31m":              `\x9b31m`,
		"bad \xff byte":          `bad \xff byte`,
		"\u202eevil":             `\u202eevil`,
	} {
		if got := safe(in); got != want {
			t.Errorf("safe(%q) = %q, want %q", in, got, want)
		}
	}
	if got := clip("日本語テキスト", 3); got != "日本語…" {
		t.Errorf("clip cut inside a character: %q", got)
	}
}
