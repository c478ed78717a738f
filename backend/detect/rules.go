// Package detect decides, for one terminal pane, whether the agent in it is
// working, idle or waiting for the user (blocked). It reads the emulated
// screen against per-agent rule files (data, see /rules), combines that with
// the agent's own reports (hooks, OSC 7501, window title) and the foreground
// process, and schedules re-evaluation shortly after the screen changes.
//
// The package imports no sibling: panes hand it screen lines through a
// callback and receive decisions through another. Wiring a pane:
//
//	reg, problems, err := detect.Load(rules.Files, home) // report problems to the user
//	mon := detect.NewMonitor(detect.MonitorConfig{Registry: reg, OnUpdate: toBoard, Notify: osNotify})
//	mon.Start()
//	tr, _ := mon.Add(paneID, "shop-api", "", emu.Lines, foregroundProcess)
//	// terminal.Options{OnChange: tr.ScreenChanged,
//	//                  OnOSC: func(n int, p string) { mon.HandleOSC(paneID, n, p) }}
//	// hooks: s, err := detect.HookReport("working") (or HookNotification(stdin)); tr.Report(s)
//	// runtime_send: if err := tr.CheckSend(); err != nil { refuse(err) }
//	// pane closed: mon.Remove(paneID)
package detect

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
)

// State is what a pane's agent is doing, as the user cares about it.
type State string

const (
	Idle    State = "idle"    // waiting for its next task, or nothing recognised
	Working State = "working" // running a turn
	Blocked State = "blocked" // waiting for the user's decision ("Needs you")
)

func parseState(s string) (State, bool) {
	switch State(s) {
	case Idle, Working, Blocked:
		return State(s), true
	}
	return "", false
}

// Rule is one compiled [[rules]] entry: any of its patterns matching the
// screen gives its state.
type Rule struct {
	Index    int // 1-based position in the file, for "which rule decided"
	State    State
	Patterns []*regexp.Regexp
}

// Ask is one compiled [[asks]] entry: when Pattern matches a blocked
// screen, Message with $1… filled from its groups says what is asked.
type Ask struct {
	Pattern *regexp.Regexp
	Message string
}

// RuleSet is one agent's compiled rules file.
type RuleSet struct {
	Agent         string
	Display       string
	Source        string // "bundled rules/claude.toml" or the override's path
	ProcessNames  []string
	Argv          []*regexp.Regexp
	ScreenMarkers []*regexp.Regexp
	TitleBlocked  []*regexp.Regexp
	TitleWorking  []*regexp.Regexp
	TitleIdle     []*regexp.Regexp
	Rules         []Rule
	// Asks word a prompt on screen for its card and notification when the
	// agent's own report names nothing (Codex reports a bare "permission").
	Asks []Ask
	// ACP: what the Agent Client Protocol stream of this agent's adapter
	// means, when the pane runs it under the app's ACP client.
	ACP ACPRules
	// RedrawsOnResume: continued after a pause (SIGCONT), the agent draws
	// its whole UI again from the cursor, so its screen is cleared first.
	RedrawsOnResume bool
}

// fileFormat is the only shape a rules file may have. Decoding is strict:
// any other key is refused, so a file can never smuggle in something like a
// command to run.
type fileFormat struct {
	Agent struct {
		Name          string   `toml:"name"`
		Display       string   `toml:"display"`
		ProcessNames  []string `toml:"process_names"`
		Argv          []string `toml:"argv"`
		ScreenMarkers []string `toml:"screen_markers"`
		// RedrawsOnResume: see RuleSet.
		RedrawsOnResume bool `toml:"redraws_on_resume"`
	} `toml:"agent"`
	Title struct {
		Blocked []string `toml:"blocked"`
		Working []string `toml:"working"`
		Idle    []string `toml:"idle"`
	} `toml:"title"`
	Rules []struct {
		State string   `toml:"state"`
		Any   []string `toml:"any"`
	} `toml:"rules"`
	Asks []struct {
		Pattern string `toml:"pattern"`
		Message string `toml:"message"`
	} `toml:"asks"`
	ACP struct {
		Adapter []string `toml:"adapter"`
		Blocked []string `toml:"blocked"`
		Working []string `toml:"working"`
	} `toml:"acp"`
}

// programKeys are keys people might try in order to make a rules file run
// something; they get a specific refusal instead of "unknown key".
var programKeys = map[string]bool{
	"command": true, "commands": true, "cmd": true, "exec": true, "run": true,
	"program": true, "shell": true, "script": true, "args": true, "action": true,
	"actions": true, "hook": true, "hooks": true, "on_match": true,
}

// maxPatternLen bounds a single regex so an override cannot make every
// evaluation expensive; RE2 keeps matching linear, but compile size matters.
const maxPatternLen = 1000

// ParseRules compiles one rules file. agent is the name the file is known by
// (its file name without .toml); source names it in errors and decisions.
func ParseRules(agent, source string, data []byte) (*RuleSet, error) {
	var f fileFormat
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, describeTOMLError(err)
	}
	if f.Agent.Name != "" && f.Agent.Name != agent {
		return nil, fmt.Errorf("[agent] name is %q but the file is %s.toml; make them match", f.Agent.Name, agent)
	}
	rs := &RuleSet{Agent: agent, Display: f.Agent.Display, Source: source, RedrawsOnResume: f.Agent.RedrawsOnResume}
	if rs.Display == "" {
		rs.Display = agent
	}
	for _, n := range f.Agent.ProcessNames {
		if strings.ContainsAny(n, "/\\ \t") || n == "" {
			return nil, fmt.Errorf("[agent] process_names: %q is not a bare process name (no paths or spaces)", n)
		}
		rs.ProcessNames = append(rs.ProcessNames, n)
	}
	var err error
	if rs.Argv, err = compileAll("[agent] argv", f.Agent.Argv); err != nil {
		return nil, err
	}
	if rs.ScreenMarkers, err = compileAll("[agent] screen_markers", f.Agent.ScreenMarkers); err != nil {
		return nil, err
	}
	if rs.TitleBlocked, err = compileAll("[title] blocked", f.Title.Blocked); err != nil {
		return nil, err
	}
	if rs.TitleWorking, err = compileAll("[title] working", f.Title.Working); err != nil {
		return nil, err
	}
	if rs.TitleIdle, err = compileAll("[title] idle", f.Title.Idle); err != nil {
		return nil, err
	}
	if rs.ACP, err = compileACP(f.ACP.Adapter, f.ACP.Blocked, f.ACP.Working); err != nil {
		return nil, err
	}
	if len(f.Rules) == 0 {
		return nil, errors.New("no [[rules]]: add at least one rule with state and any")
	}
	for i, r := range f.Rules {
		st, ok := parseState(r.State)
		if !ok {
			return nil, fmt.Errorf("rule %d: state %q is not one of blocked, working, idle", i+1, r.State)
		}
		if len(r.Any) == 0 {
			return nil, fmt.Errorf("rule %d (%s): empty any = []; list at least one pattern", i+1, st)
		}
		pats, err := compileAll(fmt.Sprintf("rule %d (%s)", i+1, st), r.Any)
		if err != nil {
			return nil, err
		}
		rs.Rules = append(rs.Rules, Rule{Index: i + 1, State: st, Patterns: pats})
	}
	for i, a := range f.Asks {
		where := fmt.Sprintf("[[asks]] %d", i+1)
		if a.Message == "" {
			return nil, fmt.Errorf("%s: empty message; say what the prompt asks, e.g. message = \"wants to run $1\"", where)
		}
		pats, err := compileAll(where, []string{a.Pattern})
		if err != nil {
			return nil, err
		}
		rs.Asks = append(rs.Asks, Ask{Pattern: pats[0], Message: a.Message})
	}
	return rs, nil
}

// compileACP compiles the [acp] section: adapter patterns need at least one
// signal to mean anything, and a signal needs an adapter to ever apply.
func compileACP(adapter, blocked, working []string) (ACPRules, error) {
	var a ACPRules
	var err error
	if a.Adapter, err = compileAll("[acp] adapter", adapter); err != nil {
		return a, err
	}
	if a.Blocked, err = compileAll("[acp] blocked", blocked); err != nil {
		return a, err
	}
	if a.Working, err = compileAll("[acp] working", working); err != nil {
		return a, err
	}
	hasSignal := len(a.Blocked)+len(a.Working) > 0
	switch {
	case len(a.Adapter) > 0 && !hasSignal:
		return a, errors.New("[acp] names an adapter but no blocked or working methods; add blocked = ['^session/request_permission$']")
	case len(a.Adapter) == 0 && hasSignal:
		return a, errors.New("[acp] lists methods but no adapter; add adapter = ['<adapter program name>']")
	}
	return a, nil
}

func compileAll(where string, pats []string) ([]*regexp.Regexp, error) {
	out := make([]*regexp.Regexp, 0, len(pats))
	for _, p := range pats {
		if p == "" {
			return nil, fmt.Errorf("%s: empty pattern matches every screen; remove it", where)
		}
		if len(p) > maxPatternLen {
			return nil, fmt.Errorf("%s: pattern longer than %d characters", where, maxPatternLen)
		}
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, fmt.Errorf("%s: bad regex %q: %v", where, p, err)
		}
		out = append(out, re)
	}
	return out, nil
}

// describeTOMLError turns go-toml's errors into one line naming the key or
// the position, and says plainly why a program-like key is refused.
func describeTOMLError(err error) error {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) {
		keys := make([]string, 0, len(strict.Errors))
		program := false
		for _, e := range strict.Errors {
			k := e.Key()
			keys = append(keys, strings.Join(k, "."))
			if len(k) > 0 && programKeys[strings.ToLower(k[len(k)-1])] {
				program = true
			}
		}
		if program {
			return fmt.Errorf("key %s refused: a rules file can only hold patterns, never a program or command to run", strings.Join(keys, ", "))
		}
		return fmt.Errorf("unknown key %s; allowed: [agent] name, display, process_names, argv, screen_markers, redraws_on_resume; [title] blocked, working, idle; [[rules]] state, any; [[asks]] pattern, message; [acp] adapter, blocked, working", strings.Join(keys, ", "))
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		return fmt.Errorf("bad TOML at line %d column %d: %s", row, col, strings.TrimPrefix(de.Error(), "toml: "))
	}
	return fmt.Errorf("bad TOML: %v", err)
}
