package panestate

import (
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/backend/terminal"
)

// Panes without an agent have no screen rules to say they work, yet a
// build that keeps printing is not "waiting for input". Such a pane is
// working while a program other than an interactive shell holds its
// terminal, or while it printed (other than the echo of typing) in the
// last quietAfter; the reason names the command. Agent panes keep their
// detected state.

// quietAfter is how long a pane that stopped printing still counts as working.
const quietAfter = 3 * time.Second

// activityTick is how often the panes without an agent are looked at
// (the foreground changes without output; a pane falls quiet).
const activityTick = 500 * time.Millisecond

// activityGrace: a pane this young is not yet judged by its activity. An
// agent started through a wrapper (`bash run-claude.sh`) is only known
// once its first screen is read; until then the wrapper would count as a
// program at work.
const activityGrace = time.Second

// SourceActivity is PaneState.Source for a state from the pane's activity.
const SourceActivity = "activity"

type activity struct {
	busy bool
	why  string
	cmd  string // the program in front of the shell, if any
}

// startActivity looks at the panes without an agent until stop closes.
func (w *Watcher) startActivity(stop <-chan struct{}) {
	go func() {
		t := time.NewTicker(activityTick)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				w.mu.Lock()
				ids := make([]string, 0, len(w.base))
				for id, st := range w.base {
					if noAgent(st) {
						ids = append(ids, id)
					}
				}
				w.mu.Unlock()
				for _, id := range ids {
					w.checkActivity(id)
				}
			}
		}
	}()
}

func noAgent(st PaneState) bool { return st.Agent == "" || st.Ended }

// outputArrived is called on every PTY read: a quiet pane without an agent
// that starts printing is looked at now, not at the next tick.
func (w *Watcher) outputArrived(id string) {
	w.mu.Lock()
	st, ok := w.base[id]
	busy := w.act[id].busy
	w.mu.Unlock()
	if ok && !busy && noAgent(st) {
		w.checkActivity(id)
	}
}

// checkActivity reads a pane's foreground and last output and publishes
// its state when being busy changed.
func (w *Watcher) checkActivity(id string) {
	p, err := w.mgr.Get(id)
	if err != nil {
		return
	}
	a := paneActivity(p, time.Now())
	w.mu.Lock()
	if _, ok := w.base[id]; !ok || w.act[id] == a {
		w.mu.Unlock()
		return
	}
	w.act[id] = a
	w.setLocked(id, w.composeLocked(id), time.Now())
}

// paneActivity is the rule itself.
func paneActivity(p *terminal.Pane, now time.Time) activity {
	if p.Exited() || now.Sub(p.Started()) < activityGrace {
		return activity{}
	}
	pg, name := p.Foreground()
	// No name: this system cannot tell (Windows consoles); output decides.
	interactive := pg == 0 || name == "" || (detect.IsShell(name) && onlyOptions(procArgv(pg)))
	if !interactive {
		cmd := p.ForegroundCommand()
		if cmd == "" {
			cmd = name
		}
		return activity{busy: true, why: cmd + " is running", cmd: cmd}
	}
	if last := p.LastOutput(); !last.IsZero() && now.Sub(last) < quietAfter {
		return activity{busy: true, why: "printed in the last " + quietAfter.String()}
	}
	return activity{}
}

// onlyOptions: a shell with nothing but options is at its prompt, not
// running a script (argv unknown counts as at its prompt).
func onlyOptions(argv []string) bool {
	for _, a := range argv[min(1, len(argv)):] {
		if !strings.HasPrefix(a, "-") {
			return false
		}
	}
	return true
}

// composeLocked is the pane's published state: its detected state, with
// its activity for a pane without an agent. Called with w.mu held.
func (w *Watcher) composeLocked(id string) PaneState {
	st := w.base[id]
	if a := w.act[id]; a.busy && noAgent(st) {
		// What runs now is not the agent that ended.
		st.State, st.Source, st.Reason, st.Agent, st.AgentName, st.Ended = string(detect.Working), SourceActivity, a.why, "", "", false
		st.Command = a.cmd
	}
	return st
}

// setLocked publishes st as the pane's state (unlocking w.mu): a new
// state starts its "since" and enters the history; a new reason does not.
func (w *Watcher) setLocked(id string, st PaneState, at time.Time) {
	prev := w.states[id]
	st.Paused = prev.Paused
	if prev.State == st.State {
		st.Since = prev.Since
	} else {
		st.Since = at.UnixMilli()
		w.remember(id, Change{At: at, State: st.State, Agent: st.Agent, Message: st.Message})
	}
	if st == prev {
		w.mu.Unlock()
		return
	}
	w.states[id] = st
	w.publish(st)
}
