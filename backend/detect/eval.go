package detect

import (
	"fmt"
	"regexp"
	"strings"
)

// Source names what decided a pane's state.
type Source string

const (
	FromScreen  Source = "screen"  // a rule matched the visible screen
	FromDefault Source = "default" // no rule matched: idle, never blocked
	FromHook    Source = "hook"    // Claude Code hook via the pane helper
	FromOSC     Source = "osc7501" // Program Status Protocol report
	FromTitle   Source = "title"   // spinner or idle marker in the window title
	FromProcess Source = "process" // foreground process group
	// FromACP (acp.go): the Agent Client Protocol stream of an ACP adapter.
	FromNoAgent Source = "none" // no agent recognised in the pane
)

// Decision is a state plus what decided it, so a badge can always say why.
type Decision struct {
	State   State
	Source  Source
	Agent   string // rule set used, "" when none
	File    string // rules file of a screen decision
	Rule    int    // 1-based rule index for FromScreen
	Pattern string // the pattern that matched, for FromScreen
	Kind    string // report kind (permission, done, …) for reports
	Message string // the agent's own summary of a prompt, when it sent one
	Ended   bool   // the agent exited and the shell is back in front
	Note    string // extra context, e.g. "report superseded by screen"
}

// String is the one-line "decided by" text of `osfoundry detect`.
func (d Decision) String() string {
	var s string
	switch d.Source {
	case FromScreen:
		s = fmt.Sprintf("%s rule %d (%s): %s", d.File, d.Rule, d.State, d.Pattern)
	case FromDefault:
		s = fmt.Sprintf("%s: no rule matched", d.File)
	case FromTitle:
		s = fmt.Sprintf("window title: %s", d.State)
	case FromHook, FromOSC, FromACP:
		s = fmt.Sprintf("%s report %s", d.Source, d.State)
		if d.Kind != "" {
			s += " (" + d.Kind + ")"
		}
	case FromProcess:
		s = "process: shell back in the foreground, agent ended"
	case FromNoAgent:
		s = "no agent recognised"
	default:
		s = string(d.Source)
	}
	if d.Note != "" {
		s += "; " + d.Note
	}
	return s
}

// ScreenText joins visible lines the way rules see them: trailing blanks
// trimmed, NULs (empty cells some emulators report) dropped, one "\n" per
// row, so a pattern can span a wrapped prompt with \s.
func ScreenText(lines []string) string {
	var b strings.Builder
	n := 0
	for _, l := range lines {
		n += len(l) + 1
	}
	b.Grow(n)
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		if strings.IndexByte(l, 0) >= 0 {
			l = strings.ReplaceAll(l, "\x00", "")
		}
		b.WriteString(strings.TrimRight(l, " \t"))
	}
	return b.String()
}

// Evaluate reads the visible screen against the rules: the first rule with a
// matching pattern wins; no match is idle (never blocked).
func (rs *RuleSet) Evaluate(lines []string) Decision {
	return rs.EvaluateText(ScreenText(lines))
}

// EvaluateText is Evaluate on text already built by ScreenText.
func (rs *RuleSet) EvaluateText(text string) Decision {
	for _, r := range rs.Rules {
		for _, p := range r.Patterns {
			if p.MatchString(text) {
				d := Decision{State: r.State, Source: FromScreen, Agent: rs.Agent, File: rs.Source, Rule: r.Index, Pattern: p.String()}
				if d.State == Blocked {
					d.Message = rs.AskText(text)
				}
				return d
			}
		}
	}
	return Decision{State: Idle, Source: FromDefault, Agent: rs.Agent, File: rs.Source}
}

// AskText words the prompt on screen with the first [[asks]] entry that
// matches it, or "" when none does.
func (rs *RuleSet) AskText(text string) string {
	for _, a := range rs.Asks {
		if m := a.Pattern.FindStringSubmatchIndex(text); m != nil {
			return sanitize(string(a.Pattern.ExpandString(nil, a.Message, text, m)), maxMessage)
		}
	}
	return ""
}

// TitleName is a window title without the state marker the agent puts in
// front of it ("[ ! ] Action Required | work" → "work", "⠋ work" → "work"):
// the part that names the pane.
func (rs *RuleSet) TitleName(title string) string {
	for _, group := range [][]*regexp.Regexp{rs.TitleBlocked, rs.TitleWorking, rs.TitleIdle} {
		for _, p := range group {
			if loc := p.FindStringIndex(title); loc != nil && loc[0] == 0 {
				return strings.TrimLeft(title[loc[1]:], " |")
			}
		}
	}
	return title
}

// MatchesMarkers reports whether the screen shows one of the agent's
// markers (used when the agent was started through a wrapper script).
func (rs *RuleSet) MatchesMarkers(text string) bool {
	for _, m := range rs.ScreenMarkers {
		if m.MatchString(text) {
			return true
		}
	}
	return false
}

// TitleState classifies a window title with the agent's [title] patterns
// (blocked first, like the screen rules).
func (rs *RuleSet) TitleState(title string) (State, bool) {
	for _, p := range rs.TitleBlocked {
		if p.MatchString(title) {
			return Blocked, true
		}
	}
	for _, p := range rs.TitleWorking {
		if p.MatchString(title) {
			return Working, true
		}
	}
	for _, p := range rs.TitleIdle {
		if p.MatchString(title) {
			return Idle, true
		}
	}
	return "", false
}
