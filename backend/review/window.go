package review

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/backend/panestate"
	"github.com/osfoundry/desktop/backend/terminal"
)

// PaneAgent is Agent over the app's panes and their detected states.
type PaneAgent struct {
	Panes  *terminal.Manager
	States *panestate.Watcher
}

var _ Agent = PaneAgent{}

// AgentState reads the pane's agent state as the rail shows it.
func (a PaneAgent) AgentState(pane string) (string, bool, bool) {
	p, err := a.Panes.Get(pane)
	if err != nil || p.Exited() {
		return "", false, false
	}
	st, ok := a.States.State(pane)
	if !ok || st.Agent == "" || st.Ended {
		return "", false, false
	}
	if st.State == "idle" && (st.Source == string(detect.FromNoAgent) || st.Source == string(detect.FromDefault)) {
		// Idle only because nothing on screen says otherwise: the agent is
		// still starting (a pane restored with the app), and text typed
		// now would be lost with its Enter. Its prompt, title or hook says
		// idle soon after.
		return "starting", st.Paused || p.Paused(), true
	}
	return st.State, st.Paused || p.Paused(), true
}

// The Enter of a typed message comes submitGap after the text at least,
// once the agent's screen shows the text's end and has held still for
// quietGap, and echoWait after the typing at most: an agent's prompt that
// reads fast typing as a paste would take an Enter inside it as a newline.
const (
	submitGap = 300 * time.Millisecond
	quietGap  = 150 * time.Millisecond
	echoWait  = 5 * time.Second
	// echoTail is how many of the text's last non-blank characters the
	// screen must show: enough to tell them from the rest of the screen.
	echoTail = 32
)

// Type types text into the pane, then Enter once the agent shows the end
// of the text and its screen held still for quietGap (submitGap at least,
// echoWait at most). An agent whose prompt lags (Claude Code starting,
// or on a busy machine) otherwise reads the text and the Enter in one
// burst, takes it for a paste and the Enter for a new line in it: the
// message sat in its prompt, unsent. Any drawing is not enough: a
// starting agent draws its own screen before it reads what was typed.
func (a PaneAgent) Type(pane, text string) error {
	p, err := a.Panes.Get(pane)
	if err != nil {
		return err
	}
	tail := unblank(text)
	if r := []rune(tail); len(r) > echoTail {
		tail = string(r[len(r)-echoTail:])
	}
	shown := func() int { return strings.Count(unblank(strings.Join(p.Screen().Lines, "")), tail) }
	before := shown()
	typed := time.Now()
	if _, err := p.Write([]byte(text)); err != nil {
		return err
	}
	time.Sleep(submitGap)
	for end := typed.Add(echoWait); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		d := p.Drawn()
		if d.After(typed) && time.Since(d) >= quietGap && shown() > before {
			break
		}
	}
	_, err = p.Write([]byte("\r"))
	return err
}

// unblank drops every blank from s: a prompt wraps a long line where it
// likes and indents what follows.
func unblank(s string) string {
	return strings.Join(strings.Fields(s), "")
}

// WindowOptions wire the Review for the window.
type WindowOptions struct {
	DB      *sql.DB
	Panes   *terminal.Manager
	States  *panestate.Watcher
	Env     func() []string
	Emitter Emitter
}

// ForWindow opens the comments and builds the Review service: queued
// comments follow the panes' states, and a closed pane's queue is dropped
// (its comments stay).
func ForWindow(ctx context.Context, o WindowOptions) (*Service, error) {
	cs, err := OpenComments(ctx, o.DB)
	if err != nil {
		return nil, err
	}
	s := New(Options{Panes: o.Panes, Agent: PaneAgent{Panes: o.Panes, States: o.States}, Comments: cs, Env: o.Env, Emitter: o.Emitter})
	o.States.OnChange(func(st panestate.PaneState) {
		if s.Queued(st.ID) {
			go s.AgentChanged(st.ID)
		}
	})
	o.Panes.OnClose(s.Forget)
	// A send queued before the last quit goes as soon as its restored
	// pane's agent is idle; one already idle needs no change to start it.
	s.q.mu.Lock()
	for pane := range s.q.pending {
		go s.AgentChanged(pane)
	}
	s.q.mu.Unlock()
	return s, nil
}
