// Package panetools lets the app's live-screen tools (runtime_list,
// runtime_read, runtime_send, runtime_answer) drive the user's terminal
// panes: it adapts the terminal manager to tools.Panes and reads every
// screen against the agent detection rules, at the moment of asking, to say
// whether an agent waits for a decision.
package panetools

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/backend/terminal"
	"github.com/osfoundry/desktop/backend/tools"
)

// Terminal is what the adapter needs of the terminal manager.
type Terminal interface {
	List() []terminal.Info
	Get(id string) (*terminal.Pane, error)
}

var _ Terminal = (*terminal.Manager)(nil)

// Panes implements tools.Panes over the app's terminal panes.
type Panes struct {
	term  Terminal
	rules *detect.Registry
}

var _ tools.Panes = (*Panes)(nil)

// New returns the adapter. rules is the detection registry (bundled rules
// plus the user's overrides); it must not be nil, since runtime_send's
// guard depends on it.
func New(term Terminal, rules *detect.Registry) (*Panes, error) {
	if term == nil || rules == nil {
		return nil, errors.New("building the live-screen tools: a terminal and the detection rules are both required")
	}
	return &Panes{term: term, rules: rules}, nil
}

// List describes every open pane with the agent in it and its state read
// from the screen now.
func (p *Panes) List() []tools.PaneInfo {
	out := []tools.PaneInfo{}
	for _, in := range p.term.List() {
		pi := tools.PaneInfo{ID: in.ID, Title: in.Title, Cwd: in.Dir}
		if pi.Title == "" {
			pi.Title = in.Folder
		}
		if in.Exited {
			pi.State = "exited"
			out = append(out, pi)
			continue
		}
		pane, err := p.term.Get(in.ID)
		if err != nil {
			continue // closed between List and Get
		}
		lines := pane.Screen().Lines
		pi.Agent = p.identify(in, lines)
		pi.State = p.state(pi.Agent, lines)
		if in.Paused {
			pi.State = "paused"
		}
		out = append(out, pi)
	}
	return out
}

// Screen returns the pane's visible lines now and the state they show.
func (p *Panes) Screen(id string) ([]string, string, error) {
	pane, err := p.pane(id)
	if err != nil {
		return nil, "", err
	}
	lines := pane.Screen().Lines
	if pane.Exited() {
		return lines, "exited", nil
	}
	var info terminal.Info
	for _, in := range p.term.List() {
		if in.ID == id {
			info = in
		}
	}
	return lines, p.state(p.identify(info, lines), lines), nil
}

// Send types text into a pane, then Enter once the pane shows it when
// enter is set (terminal.Pane.Submit).
func (p *Panes) Send(id, text string, enter bool) error {
	pane, err := p.pane(id)
	if err != nil {
		return err
	}
	if pane.Exited() {
		return fmt.Errorf("typing into pane %s: its program has ended", id)
	}
	// What is typed into a frozen pane would sit unread and land later on
	// whatever screen is showing then; say so instead.
	if pane.Paused() {
		return fmt.Errorf("typing into pane %s: it is paused; resume it first (its Resume button, or the Sessions board)", id)
	}
	if enter {
		err = pane.Submit(text)
	} else {
		_, err = pane.Write([]byte(text))
	}
	if err != nil {
		return fmt.Errorf("typing into pane %s: %w", id, err)
	}
	return nil
}

// Blocked reports whether a screen shows any known agent waiting for a
// decision. Every rule set is asked, not only the identified agent's: a
// wrapper script can hide which agent runs, and refusing to type into a
// prompt that only looks like another agent's is the safe mistake.
func (p *Panes) Blocked(lines []string) bool {
	for _, name := range p.rules.Agents() {
		if rs := p.rules.Get(name); rs != nil && rs.CheckSend(lines) != nil {
			return true
		}
	}
	return false
}

func (p *Panes) pane(id string) (*terminal.Pane, error) {
	pane, err := p.term.Get(id)
	if err != nil {
		return nil, fmt.Errorf("%w: %s", tools.ErrNoPane, id)
	}
	return pane, nil
}

// identify names the agent in a pane: by its foreground program first,
// then by the screen markers (agents started through a wrapper).
func (p *Panes) identify(in terminal.Info, lines []string) string {
	if in.Foreground != "" {
		name := filepath.Base(in.Foreground)
		if detect.IsShell(name) {
			return ""
		}
		if a := p.rules.IdentifyProcess(detect.Process{Name: name}); a != "" {
			return a
		}
	}
	return p.rules.IdentifyScreen(lines)
}

// state reads the screen with the agent's rules; a pane with no agent
// is idle unless some agent's prompt shows (then it is blocked, so the
// list agrees with runtime_send's guard).
func (p *Panes) state(agent string, lines []string) string {
	if rs := p.rules.Get(agent); rs != nil {
		return string(rs.Evaluate(lines).State)
	}
	if p.Blocked(lines) {
		return string(detect.Blocked)
	}
	return string(detect.Idle)
}
