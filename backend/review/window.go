package review

import (
	"context"
	"database/sql"
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
// once the agent's screen has held still for quietGap after drawing it,
// and echoWait after the typing at most: an agent's prompt that reads fast
// typing as a paste would take an Enter inside it as a newline.
const (
	submitGap = 300 * time.Millisecond
	quietGap  = 150 * time.Millisecond
	echoWait  = 5 * time.Second
)

// Type types text into the pane, then Enter once the agent has drawn
// the text and its screen held still for quietGap (submitGap at least,
// echoWait at most). An agent whose prompt lags (Claude Code on a busy
// machine) otherwise reads the text and the Enter in one burst, takes it
// for a paste and the Enter for a new line in it: the message sat in its
// prompt, unsent.
func (a PaneAgent) Type(pane, text string) error {
	p, err := a.Panes.Get(pane)
	if err != nil {
		return err
	}
	typed := time.Now()
	if _, err := p.Write([]byte(text)); err != nil {
		return err
	}
	time.Sleep(submitGap)
	for end := typed.Add(echoWait); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if d := p.Drawn(); d.After(typed) && time.Since(d) >= quietGap {
			break
		}
	}
	_, err = p.Write([]byte("\r"))
	return err
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
