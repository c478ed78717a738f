// Package replay runs recorded terminal output through the app's emulator
// and detection, the way a live pane would see it. `osfoundry detect` and
// the fixture tests use it.
package replay

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/backend/lazy"
	"github.com/osfoundry/desktop/backend/terminal"
)

// Options for one replay.
type Options struct {
	Agent string // "" or "auto": discover from screen markers, OSC reports, then the file name
	Cols  int
	Rows  int
	Chunk int // bytes per simulated PTY read; 0 = 4096
	// Hooks are the agent's hook reports, each given to detection once the
	// output reached its offset (File reads them from beside the capture).
	Hooks []Hook
	// Settle is how long the last screen stays before it is judged;
	// 0 = DefaultSettle, negative = judged at once.
	Settle time.Duration
}

// Result is the decision for one capture.
type Result struct {
	File     string
	Agent    string
	Decision detect.Decision
	Expected string   // from the file name: a state, NotBlocked, or "" when it names none
	Lines    []string // the final visible screen
}

// NotBlocked is the expectation of an "after-answer" capture: the prompt is
// gone, the agent may be working or idle.
const NotBlocked = "not-blocked"

// OK reports whether the decision matches the state named by the file.
func (r Result) OK() bool {
	switch r.Expected {
	case "":
		return false
	case NotBlocked:
		return r.Decision.State != detect.Blocked
	}
	return string(r.Decision.State) == r.Expected
}

// chunk approximates PTY reads: detection runs after each, so transitions
// (a report superseded by a later screen) happen as they would live.
const chunk = 4096

// File replays one capture.
func File(reg *detect.Registry, path string, o Options) (Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return Result{}, fmt.Errorf("reading capture: %w", err)
	}
	defer f.Close()
	hintAgent, expected := ParseName(filepath.Base(path))
	if o.Hooks == nil {
		if o.Hooks, err = ReadHooks(path); err != nil {
			return Result{}, err
		}
	}
	res, err := Reader(reg, f, o, hintAgent)
	res.File, res.Expected = path, expected
	return res, err
}

// Reader replays a raw byte stream. hintAgent (e.g. from a file name) is
// used only when nothing on screen or in the stream names the agent.
func Reader(reg *detect.Registry, r io.Reader, o Options, hintAgent string) (Result, error) {
	if o.Cols <= 0 {
		o.Cols = 120
	}
	if o.Rows <= 0 {
		o.Rows = 32
	}
	emu := terminal.NewEmulator(o.Cols, o.Rows)
	clock := detect.NewManualClock(time.Unix(0, 0))
	agent := o.Agent
	if agent == "auto" {
		agent = ""
	}
	if agent != "" && reg.Get(agent) == nil {
		return Result{}, fmt.Errorf("unknown agent %q; known: %s", agent, strings.Join(reg.Agents(), ", "))
	}
	tr := detect.NewTracker(detect.TrackerConfig{ID: "replay", Registry: reg, Screen: emu.Lines, Clock: clock, Agent: agent})
	var pending []func()
	emu.OnOSC(func(num int, payload string) {
		// Runs with the emulator locked: queue, apply after Write returns.
		switch num {
		case 0, 2:
			pending = append(pending, func() { tr.Title(payload) })
		case detect.OSCStatus:
			if s, err := detect.ParseOSC7501(payload); err == nil {
				pending = append(pending, func() { tr.Report(s) })
			}
		}
	})
	if o.Chunk <= 0 {
		o.Chunk = chunk
	}
	buf := make([]byte, o.Chunk)
	hooks := o.Hooks
	pos := 0
	var d detect.Decision
	for {
		// A read ends where the next hook report arrived, so each report
		// meets the screen it met live.
		want := o.Chunk
		if len(hooks) > 0 && hooks[0].Offset > pos && hooks[0].Offset-pos < want {
			want = hooks[0].Offset - pos
		}
		n, err := r.Read(buf[:want])
		if n > 0 {
			emu.Write(buf[:n])
			pos += n
			for _, fn := range pending {
				fn()
			}
			pending = pending[:0]
			tr.ScreenChanged()
			clock.Advance(detect.DefaultDelay)
		}
		for len(hooks) > 0 && (hooks[0].Offset <= pos || err == io.EOF) {
			if s, ok := hooks[0].signal(); ok {
				tr.Report(s)
				clock.Advance(detect.DefaultDelay)
			}
			hooks = hooks[1:]
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return Result{}, fmt.Errorf("reading capture: %w", err)
		}
	}
	if o.Settle == 0 {
		o.Settle = DefaultSettle
	}
	if o.Settle > 0 {
		clock.Advance(o.Settle)
	}
	d = tr.Evaluate()
	if hint := resolveHint(reg, hintAgent); d.Agent == "" && hint != "" {
		// Nothing on screen or in the stream named the agent: the file does.
		tr.SetAgent(hint)
		d = tr.Evaluate()
		d.Note = strings.TrimPrefix(d.Note+"; agent from file name", "; ")
	}
	return Result{Agent: d.Agent, Decision: d, Lines: emu.Lines()}, nil
}

// resolveHint maps a file-name agent ("gemini-cli") to a rule set ("gemini").
func resolveHint(reg *detect.Registry, hint string) string {
	for hint != "" {
		if reg.Get(hint) != nil {
			return hint
		}
		i := strings.LastIndexByte(hint, '-')
		if i < 0 {
			break
		}
		hint = hint[:i]
	}
	return ""
}

var agentPart = lazy.Regexp(`^([a-z][a-z0-9_]*(?:-[a-z][a-z0-9_]*)*)(?:-v?\d.*)?$`)

// ParseName reads `<agent>[-<renderer>][-<version>].<state>[.<detail>].raw`,
// e.g. "claude-2.1.328.blocked.edit.raw" → ("claude", "blocked"). Besides
// the three states, "after-answer" expects NotBlocked, and "interrupted"
// (Esc during a turn) and "exited" expect idle.
func ParseName(base string) (agent, expected string) {
	name := strings.TrimSuffix(base, ".raw")
	parts := strings.Split(name, ".")
	for _, p := range parts[1:] {
		switch p {
		case string(detect.Idle), string(detect.Working), string(detect.Blocked):
			expected = p
		case "after-answer":
			expected = NotBlocked
		case "interrupted", "exited":
			expected = string(detect.Idle)
		}
		if expected != "" {
			break
		}
	}
	// The version's own dots ("2.1.328") are split off above; the agent is
	// the first part without its "-<version>".
	if m := agentPart().FindStringSubmatch(parts[0]); m != nil {
		agent = m[1]
	}
	return agent, expected
}
