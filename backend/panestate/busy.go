package panestate

// BusyPane is a pane that quitting would cut short: its agent is working
// or waits for the user, or a program other than its shell runs in it.
// The same panes the rail asks about before closing one.
type BusyPane struct {
	ID     string `json:"id"`
	Folder string `json:"folder"`
	// Name is the name the person gave the pane ("" when not renamed): the
	// question names a pane as the rail does, by its name, else its folder.
	Name string `json:"name,omitempty"`
	// What is the agent's name ("Claude Code") or the running command
	// ("npm run dev").
	What  string `json:"what"`
	Agent bool   `json:"agent"` // What names an agent, not a command
	State string `json:"state"` // working or blocked
}

// Busy lists the open panes that quitting would cut short, in the rail's
// order.
func (w *Watcher) Busy() []BusyPane {
	var out []BusyPane
	for _, in := range w.mgr.List() {
		if in.Exited {
			continue
		}
		st, ok := w.State(in.ID)
		if !ok || (st.State != "working" && st.State != "blocked") {
			continue
		}
		what := st.AgentName
		switch {
		case st.Agent != "" && !st.Ended:
		case st.Agent == "" && st.Command != "":
			what = st.Command
		default:
			continue
		}
		out = append(out, BusyPane{ID: in.ID, Folder: in.Folder, Name: in.Name, What: what, Agent: st.Agent != "", State: st.State})
	}
	return out
}
