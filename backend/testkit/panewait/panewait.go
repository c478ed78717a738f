// Package panewait is what tests of a real pane running a real TUI do
// over and over: wait for the screen to show something, and type a line
// the way a person does (TUIs drop keys while they finish starting).
package panewait

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/terminal"
)

// Live is how long a live agent gets to show something.
const Live = 45 * time.Second

// Screen waits until the pane's screen matches re.
func Screen(t testing.TB, p *terminal.Pane, re *regexp.Regexp) {
	t.Helper()
	end := time.Now().Add(Live)
	for time.Now().Before(end) {
		if re.MatchString(text(p)) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("screen never showed %s:\n%s", re, text(p))
}

// TypeLine types line, waits for its echo, then presses Enter; it types
// again (up to four times) when the echo does not come.
func TypeLine(t testing.TB, p *terminal.Pane, line string) {
	t.Helper()
	re := regexp.MustCompile(regexp.QuoteMeta(line))
	for try := 0; try < 4; try++ {
		p.Write([]byte(line))
		end := time.Now().Add(5 * time.Second)
		for time.Now().Before(end) {
			if re.MatchString(text(p)) {
				time.Sleep(300 * time.Millisecond)
				p.Write([]byte("\r"))
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	t.Fatalf("typed %q, never echoed:\n%s", line, text(p))
}

func text(p *terminal.Pane) string { return strings.Join(p.Screen().Lines, "\n") }
