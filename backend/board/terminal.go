package board

import (
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/panestate"
	"github.com/osfoundry/desktop/backend/terminal"
)

// Terminal is the board's source for terminal panes: one card per pane, in
// the column its detected state gives.
type Terminal struct {
	mgr      *terminal.Manager
	watch    *panestate.Watcher
	sessions AgentSessions // nil: cards keep the agent's bare name
}

// NewTerminal offers mgr's panes, with w's detected states; changed (the
// Board's Changed) is called when a pane appears, exits, closes or changes
// state.
func NewTerminal(mgr *terminal.Manager, w *panestate.Watcher, changed func()) *Terminal {
	if changed != nil {
		mgr.Observe(func(*terminal.Pane) { changed() }, nil, nil, func(string, int) { changed() })
		mgr.OnClose(func(string) { changed() })
		mgr.OnBranchDiff(func(string) { changed() })
		w.OnChange(func(panestate.PaneState) { changed() })
	}
	return &Terminal{mgr: mgr, watch: w}
}

// Cards lists every pane.
func (t *Terminal) Cards() []Card {
	infos := t.mgr.List()
	out := make([]Card, 0, len(infos))
	for _, in := range infos {
		st, _ := t.watch.State(in.ID)
		out = append(out, t.card(in, st))
	}
	return out
}

// column maps a pane's detection state to the board: blocked needs the
// user; a program that exited is done (or failed on a non-zero code); a
// paused pane is paused whatever it was doing when frozen.
func column(in terminal.Info, st panestate.PaneState) string {
	switch {
	case in.Exited && in.ExitCode != 0:
		return Failed
	case in.Exited:
		return Done
	case in.Paused:
		return Paused
	case st.State == "blocked":
		return NeedsYou
	case st.State == "working":
		return Running
	}
	return Idle
}

func (t *Terminal) card(in terminal.Info, st panestate.PaneState) Card {
	c := Card{ID: in.ID, Kind: KindTerminal, Title: t.cardTitle(in, st), Folder: in.Folder, Dir: in.Dir,
		State: column(in, st), Reason: st.Reason, StartedAt: in.StartedAt, UpdatedAt: st.Since,
		Link: "/terminal?pane=" + in.ID, CanPause: in.CanPause && !in.Exited}
	if c.UpdatedAt == 0 {
		c.UpdatedAt = in.StartedAt
	}
	if in.Branch != nil {
		c.Branch, c.Added, c.Removed = in.Branch.Name, in.Added, in.Removed
	}
	c.Why = t.why(c.State, st, in)
	c.Model = ArgvModel(in.Argv)
	return c
}

// ArgvModel is the model a pane's agent was started with: the value of
// `claude --model X` or `codex -m X` (also --model=X, -mX is not a form
// either CLI documents), "" for any other program or none given.
func ArgvModel(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	prog := strings.ToLower(filepath.Base(argv[0]))
	prog = strings.TrimSuffix(prog, ".exe")
	codex := prog == "codex"
	// The app's own ACP client: `<app> acp --model X -- adapter…`.
	acpClient := len(argv) > 1 && argv[1] == "acp"
	if prog != "claude" && !codex && !acpClient {
		return ""
	}
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if a == "--" {
			break
		}
		if v, ok := strings.CutPrefix(a, "--model="); ok {
			return v
		}
		if (a == "--model" || (codex && a == "-m")) && i+1 < len(argv) {
			return argv[i+1]
		}
	}
	return ""
}

// paneTitle is the window title the program set (spinner glyphs and
// markers dropped), else the agent's name, else the command.
func (t *Terminal) paneTitle(in terminal.Info, st panestate.PaneState) string {
	title := in.Title
	if rs := t.watch.Registry().Get(st.Agent); rs != nil {
		// Codex puts "[ ! ] Action Required | " before its title while it
		// waits: the state is the card's column, the rest names the pane.
		title = rs.TitleName(title)
	}
	title = strings.TrimSpace(strings.TrimLeft(title, "✳✱⠀⠁⠂⠃⠄⠅⠆⠇⠈⠉⠊⠋⠌⠍⠎⠏⠐⠑⠒⠓⠔⠕⠖⠗⠘⠙⠚⠛⠜⠝⠞⠟⠠⠡⠢⠣⠤⠥⠦⠧⠨⠩⠪⠫⠬⠭⠮⠯⠰⠱⠲⠳⠴⠵⠶⠷⠸⠹⠺⠻⠼⠽⠾⠿◐◑◒◓ "))
	if title != "" {
		return title
	}
	if st.Agent != "" {
		return t.agentName(st.Agent)
	}
	if len(in.Argv) > 0 {
		return strings.Join(in.Argv, " ")
	}
	if in.Foreground != "" {
		return in.Foreground
	}
	return "Shell"
}

// cardTitle names the card. An agent's bare name ("Claude Code", the
// window title Claude Code sets before its first prompt) tells two panes
// apart no better than nothing: the first prompt from the agent's own
// session store names it, else the folder it runs in.
func (t *Terminal) cardTitle(in terminal.Info, st panestate.PaneState) string {
	if in.Name != "" {
		return in.Name // the person's own name for the pane
	}
	title := t.paneTitle(in, st)
	if st.Agent == "" || title != t.agentName(st.Agent) {
		return title
	}
	if t.sessions != nil {
		if found, ok := t.sessions.Latest(st.Agent, in.Dir, time.UnixMilli(in.StartedAt)); ok {
			if p := oneLine(found.Title); p != "" {
				return p
			}
		}
	}
	if in.Folder != "" {
		return title + " in " + in.Folder
	}
	return title
}

// why is the card's one line: the prompt's own summary when the agent sent
// one, else what the state means for this pane.
func (t *Terminal) why(col string, st panestate.PaneState, in terminal.Info) string {
	agent := t.agentName(st.Agent)
	switch col {
	case NeedsYou:
		if st.Message != "" {
			return st.Message
		}
		return agent + " is waiting for your decision"
	case Running:
		if st.Source == panestate.SourceActivity {
			return st.Reason // a pane without an agent: "npm run dev is running"
		}
		return agent + " is working"
	case Paused:
		if st.Agent == "" {
			return "Paused — everything in this pane is frozen until you resume it"
		}
		return "Paused — " + agent + " is frozen until you resume it"
	case Failed:
		return "Exited with code " + strconv.Itoa(in.ExitCode)
	case Done:
		return "Exited"
	}
	if st.Ended {
		return agent + " ended; the shell is back"
	}
	if st.Agent == "" {
		return "Waiting for input"
	}
	return agent + " is waiting for its next task"
}

// agentName is what the user calls the pane's agent: its rules file's display
// name ("Claude Code", "Codex CLI"), or "The program" when none is known.
func (t *Terminal) agentName(a string) string {
	if a == "" {
		return "The program"
	}
	return t.watch.Registry().DisplayName(a)
}

// Summary reads the pane now: a fresh evaluation of its screen and
// signals, its command, folder, state history and last screen.
func (t *Terminal) Summary(id string) (Summary, error) {
	p, err := t.mgr.Get(id)
	if err != nil {
		return Summary{}, err
	}
	st, _ := t.watch.Evaluate(id)
	var info terminal.Info
	for _, in := range t.mgr.List() {
		if in.ID == id {
			info = in
		}
	}
	s := Summary{Title: t.cardTitle(info, st), State: column(info, st), Command: strings.Join(p.Argv(), " "),
		Dir: p.Dir(), Agent: t.agentName(st.Agent), Started: p.Started()}
	if s.Command == "" {
		s.Command = terminal.DefaultShell()
	}
	if st.Agent == "" {
		s.Agent = ""
	}
	s.AgentCLI = st.Agent
	// The conversation the agent reported itself (Claude Code's SessionStart
	// hook) is exact; without one the Board looks in the agent's store.
	if st.Agent != "" {
		s.SessionID = p.Session().ID
		s.SearchStore = s.SessionID == ""
	}
	for _, h := range t.watch.History(id) {
		s.Events = append(s.Events, Event{At: h.At, Text: t.historyText(h)})
	}
	lines := p.Screen().Lines
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	s.LastScreen = lines
	return s, nil
}

func (t *Terminal) historyText(h panestate.Change) string {
	who := t.agentName(h.Agent)
	switch h.State {
	case "blocked":
		if h.Message != "" {
			return who + " asked: " + h.Message
		}
		return who + " asked for a decision"
	case "working":
		return who + " worked"
	case panestate.PausedState:
		return "You paused it"
	case panestate.Resumed:
		return "You resumed it"
	}
	return who + " waited for its next task"
}

// Pause freezes the pane and everything it started.
func (t *Terminal) Pause(id string) error { return paneErr(t.mgr.Pause(id)) }

// Resume continues a paused pane.
func (t *Terminal) Resume(id string) error { return paneErr(t.mgr.Resume(id)) }

// paneErr words the terminal's pause errors for the board.
func paneErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, terminal.ErrExited), errors.Is(err, terminal.ErrClosed):
		return ErrEnded
	case errors.Is(err, terminal.ErrPauseUnsupported):
		return ErrNoPause
	}
	return err
}

// End closes the pane and everything it started.
func (t *Terminal) End(id string) error { return t.mgr.Close(id) }

// SetSessions lets cards titled only by their agent's name ("Claude Code")
// be named by their first prompt, found in the agent's own session store.
func (t *Terminal) SetSessions(s AgentSessions) { t.sessions = s }
