// Package record drives the real agent TUIs in a real PTY (through the app's
// own terminal package) and saves, for each state they reach, the raw bytes
// from process start: the fixtures every detector test replays.
package record

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/detect/replay"
	"github.com/osfoundry/desktop/backend/terminal"
	"github.com/osfoundry/desktop/backend/testkit/agentenv"
)

// Size of every recorded terminal.
const (
	Cols = 120
	Rows = 32
)

// Session is one agent TUI running in a pane, with every byte it printed.
//
// The bytes are also fed to a private emulator under the same lock as the
// buffer, so a saved prefix replays to exactly the screen the wait matched
// (the pane's own emulator may be a chunk ahead or behind).
type Session struct {
	Name string // fixture prefix, e.g. "claude-2.1.328" or "claude-fullscreen-2.1.328"
	Out  string // folder the fixtures go to
	Log  func(format string, args ...any)

	pane *terminal.Pane
	env  *agentenv.Env

	mu      sync.Mutex
	buf     bytes.Buffer
	emu     *terminal.Emulator
	last    time.Time // last output
	saved   []string
	history []string // transcript of what was matched/sent, for error messages
	// hooks are the reports the agent's hooks sent, each at the number of
	// output bytes printed when it arrived (hooks.go).
	hooks []replay.Hook
}

// tap receives the raw PTY stream.
type tap struct{ s *Session }

func (t tap) Write(b []byte) (int, error) {
	t.s.mu.Lock()
	t.s.buf.Write(b)
	t.s.emu.Write(b)
	t.s.last = time.Now()
	t.s.mu.Unlock()
	return len(b), nil
}

// Start runs argv (argv[0] is the agent binary) in the env's work folder.
func Start(env *agentenv.Env, name, out string, argv []string, extraEnv ...string) (*Session, error) {
	s := &Session{Name: name, Out: out, env: env, emu: terminal.NewEmulator(Cols, Rows),
		last: time.Now(), Log: func(string, ...any) {}}
	p, err := terminal.Start(terminal.Options{
		Dir:  env.Work,
		Argv: argv,
		Env:  append(append([]string(nil), env.Env...), extraEnv...),
		Cols: Cols, Rows: Rows,
		Tap: tap{s},
	})
	if err != nil {
		return nil, fmt.Errorf("starting %s in a pane: %w", name, err)
	}
	s.pane = p
	return s, nil
}

// Screen is the current screen text (private emulator).
func (s *Session) Screen() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.emu.Lines(), "\n")
}

// Pane is the underlying pane.
func (s *Session) Pane() *terminal.Pane { return s.pane }

// Wait blocks until the screen matches re, then until output settles (no
// new bytes for settle, or at most 4×settle since the match: spinners never
// settle), and returns with the screen still matching.
func (s *Session) Wait(re *regexp.Regexp, timeout time.Duration) error {
	const settle = 400 * time.Millisecond
	deadline := time.Now().Add(timeout)
	var since time.Time
	for {
		s.mu.Lock()
		screen := strings.Join(s.emu.Lines(), "\n")
		quiet := time.Since(s.last)
		s.mu.Unlock()
		if re.MatchString(screen) {
			if since.IsZero() {
				since = time.Now()
			}
			if quiet >= settle || time.Since(since) >= 4*settle {
				s.note("matched %q", re)
				return nil
			}
		} else {
			since = time.Time{}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: waiting %s for %q: not on screen:\n%s\n(steps: %s)",
				s.Name, timeout, re, screen, strings.Join(s.history, " → "))
		}
		select {
		case <-s.pane.Done():
			// One more look: the last bytes may have just arrived.
			if re.MatchString(s.Screen()) {
				return nil
			}
			return fmt.Errorf("%s: exited while waiting for %q; screen:\n%s\n(steps: %s)",
				s.Name, re, s.Screen(), strings.Join(s.history, " → "))
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// WaitGone blocks until re no longer matches the screen.
func (s *Session) WaitGone(re *regexp.Regexp, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for re.MatchString(s.Screen()) {
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: %q still on screen after %s:\n%s", s.Name, re, timeout, s.Screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.note("gone %q", re)
	return nil
}

// Send types into the pane.
func (s *Session) Send(keys string) error {
	s.note("sent %q", keys)
	if _, err := s.pane.Write([]byte(keys)); err != nil {
		return fmt.Errorf("%s: typing %q: %w", s.Name, keys, err)
	}
	return nil
}

// Type types text, then presses Enter separately: TUIs treat a burst ending
// in \r as a paste and insert a newline instead of submitting.
func (s *Session) Type(text string) error {
	if err := s.Send(text); err != nil {
		return err
	}
	time.Sleep(300 * time.Millisecond)
	return s.Send("\r")
}

// TypeEcho types text, waits until the screen shows it (some TUIs drop
// keys while they finish starting: then it types again), and presses Enter.
func (s *Session) TypeEcho(text string) error {
	re := regexp.MustCompile(regexp.QuoteMeta(text))
	for try := 0; ; try++ {
		if err := s.Send(text); err != nil {
			return err
		}
		if s.Wait(re, 5*time.Second) == nil {
			break
		}
		if try == 3 {
			return fmt.Errorf("%s: typed %q four times, never echoed:\n%s", s.Name, text, s.Screen())
		}
	}
	time.Sleep(300 * time.Millisecond)
	return s.Send("\r")
}

// Save writes the bytes so far as <name>.<state>.raw, with the screen they
// replay to as <name>.<state>.screen.txt (for humans reviewing a re-record).
func (s *Session) Save(state string) error {
	s.mu.Lock()
	raw := append([]byte(nil), s.buf.Bytes()...)
	screen := strings.Join(s.emu.Lines(), "\n") + "\n"
	s.mu.Unlock()
	base := filepath.Join(s.Out, s.Name+"."+state)
	if err := os.WriteFile(base+".raw", raw, 0o644); err != nil {
		return fmt.Errorf("saving %s: %w", base, err)
	}
	if err := os.WriteFile(base+".screen.txt", []byte(screen), 0o644); err != nil {
		return fmt.Errorf("saving %s: %w", base, err)
	}
	s.saved = append(s.saved, filepath.Base(base)+".raw", filepath.Base(base)+".screen.txt")
	if hooks := s.hooksUpTo(len(raw)); len(hooks) > 0 {
		if err := writeHooks(base+replay.HooksSuffix, hooks); err != nil {
			return err
		}
		s.saved = append(s.saved, filepath.Base(base)+replay.HooksSuffix)
	}
	s.note("saved %s", state)
	s.Log("  %-48s %7d bytes", filepath.Base(base)+".raw", len(raw))
	return nil
}

// WaitSave is Wait then Save.
func (s *Session) WaitSave(re *regexp.Regexp, timeout time.Duration, state string) error {
	if err := s.Wait(re, timeout); err != nil {
		return err
	}
	return s.Save(state)
}

// WaitExit waits for the program to end.
func (s *Session) WaitExit(timeout time.Duration) error {
	select {
	case <-s.pane.Done():
		s.note("exited")
		return nil
	case <-time.After(timeout):
		return fmt.Errorf("%s: still running %s after asking it to exit; screen:\n%s", s.Name, timeout, s.Screen())
	}
}

// Saved lists the fixtures written so far.
func (s *Session) Saved() []string { return s.saved }

// Close ends the pane.
func (s *Session) Close() error { return s.pane.Close() }

func (s *Session) note(format string, args ...any) {
	s.mu.Lock()
	s.history = append(s.history, fmt.Sprintf(format, args...))
	s.mu.Unlock()
}
