package detect

// Signal is one report about a pane from outside the screen rules: a hook,
// an OSC 7501 status report, or the window title.
type Signal struct {
	Source  Source // FromHook, FromOSC or FromTitle
	State   State
	Kind    string // permission, done, idle_prompt, …
	App     string // reporting program as it names itself (codex, claude-code)
	Message string // the prompt's own summary, sanitized
	Clear   bool   // the agent withdrew its report: fall back to other signals
}

// Inputs is everything Combine weighs for one pane at one moment.
type Inputs struct {
	Screen          Decision // rules on the visible screen
	Report          *Signal  // the agent's latest explicit report (hook or OSC 7501)
	Title           *Signal  // the latest window-title reading
	ShellForeground bool     // an agent ran and the shell is back in front
}

// Combine applies the SPEC's priority:
//  1. a blocked read from the screen always wins — a prompt on screen is
//     exact, reports can be stale or missing;
//  2. the agent's latest report (explicit reports before the title);
//  3. the shell back in the foreground: the agent ended;
//  4. the remaining screen rules (working / idle, or idle by default).
func Combine(in Inputs) Decision {
	if in.Screen.State == Blocked {
		d := in.Screen
		if in.Report != nil && in.Report.State == Blocked && !in.Report.Clear {
			// Keep the agent's own summary of the prompt for the card; a
			// report without one keeps what the rules read on screen.
			d.Kind = in.Report.Kind
			if in.Report.Message != "" {
				d.Message = in.Report.Message
			}
		}
		return d
	}
	for _, r := range []*Signal{in.Report, in.Title} {
		if r == nil || r.Clear || r.State == "" {
			continue
		}
		if r.Source == FromTitle && r.State == Idle && in.Screen.Source == FromScreen && in.Screen.State == Working {
			// An idle title marker is set once and may lag (Claude Code
			// writes "✳ Claude Code" at start): it never hides a working screen.
			continue
		}
		return Decision{State: r.State, Source: r.Source, Agent: in.Screen.Agent, Kind: r.Kind, Message: r.Message}
	}
	if in.ShellForeground {
		return Decision{State: Idle, Source: FromProcess, Agent: in.Screen.Agent, Ended: true}
	}
	return in.Screen
}
