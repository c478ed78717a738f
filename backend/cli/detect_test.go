package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDetectCommand(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HOME", t.TempDir()) // never read the machine's real overrides
	blocked := "\r\x1b[1C\x1b[1B\x1b[39mDo\x1b[5Gyou\x1b[9Gwant\x1b[14Gto\x1b[17Gproceed?\r\x1b[1C\x1b[1B❯\x1b[4G1. Yes"
	working := "\r\x1b[1B✻ Frolicking… (3s · esc to interrupt)"
	files := map[string]string{
		"claude-2.1.303.blocked.raw": blocked,
		"claude.working.raw":         working,
		"claude.idle.raw":            working, // deliberately wrong name: must be reported as a mismatch
	}
	var args []string
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	var out, errb bytes.Buffer
	code := Run(&Env{Stdout: &out, Stderr: &errb}, append([]string{"detect"}, args...))
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errb.String())
	}
	rows := map[string]string{}
	for _, l := range strings.Split(out.String(), "\n") {
		if f := strings.Fields(l); len(f) > 0 {
			rows[f[0]] = l
		}
	}
	for file, wants := range map[string][]string{
		"claude-2.1.303.blocked.raw": {" blocked ", "claude.toml rule 1 (blocked): Do you want to", " ok"},
		"claude.working.raw":         {" working ", "rule 2 (working): esc to interrupt", " ok"},
		"claude.idle.raw":            {" working ", "MISMATCH (want idle)"},
	} {
		for _, w := range wants {
			if !strings.Contains(rows[file], w) {
				t.Errorf("%s: row %q lacks %q", file, rows[file], w)
			}
		}
	}
	if !strings.Contains(out.String(), "correct: 2/3") {
		t.Errorf("no tally in:\n%s", out.String())
	}
}
