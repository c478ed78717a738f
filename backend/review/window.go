package review

import (
	"context"
	"database/sql"

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

// Type types text into the pane, then Enter once the agent shows it
// (terminal.Pane.Submit).
func (a PaneAgent) Type(pane, text string) error {
	p, err := a.Panes.Get(pane)
	if err != nil {
		return err
	}
	return p.Submit(text)
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
