//go:build !windows

package terminal

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fixtureDir holds raw captures recorded from the real agent CLIs
// (backend/testkit/fixtures, `make fixtures`), all at 120×32.
const fixtureDir = "../testkit/fixtures/testdata"

// TestEmulatorMatchesTmux replays every recorded capture into a real
// terminal (a fixed-size tmux pane) and into the app's emulator, and
// compares the visible screens row by row. tmux is the oracle.
func TestEmulatorMatchesTmux(t *testing.T) {
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed (make test installs it): the oracle comparison needs a real terminal")
	}
	raws, _ := filepath.Glob(filepath.Join(fixtureDir, "*.raw"))
	if len(raws) == 0 {
		t.Skip("no recorded captures in " + fixtureDir + " — run `make fixtures`")
	}
	sock := filepath.Join(t.TempDir(), "tmux.sock")
	run := func(args ...string) (string, error) {
		out, err := exec.Command(tmux, append([]string{"-S", sock, "-f", "/dev/null"}, args...)...).CombinedOutput()
		return string(out), err
	}
	defer run("kill-server")
	matched := 0
	for _, raw := range raws {
		name := filepath.Base(raw)
		abs, _ := filepath.Abs(raw)
		// -echo: tmux answers the capture's queries into the pane's input,
		// and the tty must not draw those answers.
		// The marker file says cat has written everything: on a loaded
		// machine a capture can be stable (and empty) before cat has run.
		done := filepath.Join(t.TempDir(), "done")
		start := []string{"new-session", "-d", "-x", "120", "-y", "32", "-s", "o", "stty -echo; cat '" + abs + "'; : > '" + done + "'; exec sleep 600"}
		if _, err := run(start...); err != nil {
			// A server that is still exiting after the previous session can
			// refuse once; a second start is reliable.
			time.Sleep(200 * time.Millisecond)
			if out, err := run(start...); err != nil {
				t.Fatalf("starting tmux: %v %s", err, out)
			}
		}
		run("set-option", "-t", "o", "status", "off")
		run("resize-window", "-t", "o", "-x", "120", "-y", "32")
		want := captureSettled(t, run, done)
		run("kill-session", "-t", "o")

		e := NewEmulator(120, 32)
		b, err := os.ReadFile(raw)
		if err != nil {
			t.Fatal(err)
		}
		e.Write(b)
		got := e.Lines()
		var diffs []string
		for y := 0; y < 32; y++ {
			w := ""
			if y < len(want) {
				w = strings.TrimRight(dropZeroWidth(want[y]), " ")
			}
			if got[y] != w {
				diffs = append(diffs, "  row "+strconv.Itoa(y)+"\n    tmux: "+w+"\n    ours: "+got[y])
			}
		}
		if len(diffs) > 0 {
			t.Errorf("%s: %d rows differ from tmux:\n%s", name, len(diffs), strings.Join(diffs, "\n"))
			continue
		}
		matched++
	}
	t.Logf("%d/%d recorded screens identical to tmux", matched, len(raws))
}

// captureSettled waits until cat has written everything (the marker file
// done exists) and tmux has drawn it (two identical captures in a row),
// and returns the pane's rows.
func captureSettled(t *testing.T, run func(...string) (string, error), done string) []string {
	t.Helper()
	for i := 0; ; i++ {
		if _, err := os.Stat(done); err == nil {
			break
		}
		if i == 1200 { // a minute: cat of one capture never takes that long
			t.Fatalf("the capture was not written into tmux within a minute")
		}
		time.Sleep(50 * time.Millisecond)
	}
	prev := ""
	for i := 0; i < 100; i++ {
		out, err := run("capture-pane", "-p", "-t", "o")
		if err != nil {
			t.Fatalf("capture-pane: %v %s", err, out)
		}
		if out == prev {
			return strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		}
		prev = out
		time.Sleep(50 * time.Millisecond)
	}
	return strings.Split(prev, "\n")
}

// dropZeroWidth removes marks that take no cell (variation selectors,
// joiners): tmux keeps them attached to the previous cell's text, the app's
// screen drops them.
func dropZeroWidth(s string) string {
	return strings.Map(func(r rune) rune {
		if runeWidth(r) == 0 {
			return -1
		}
		return r
	}, s)
}
