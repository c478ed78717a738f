package panestate

import (
	"encoding/json"

	"github.com/osfoundry/desktop/backend/detect"
)

// onACP applies one protocol step reported by the app's ACP client in a
// pane (`osfoundry acp`): the adapter's rules file says which requests
// block the agent and which start a turn, and the pane's open requests
// decide its state. A malformed step, or one from an adapter no rules file
// declares, changes nothing.
func (w *Watcher) onACP(t *detect.Tracker, pane string, payload []byte) {
	var ev detect.ACPEvent
	if err := json.Unmarshal(payload, &ev); err != nil {
		return
	}
	rs := w.cfg.Registry.Get(w.cfg.Registry.IdentifyACP(ev.Adapter))
	if rs == nil {
		return
	}
	w.mu.Lock()
	if w.acp == nil {
		w.acp = map[string]*detect.ACPStream{}
	}
	s := w.acp[pane]
	if s == nil {
		s = &detect.ACPStream{}
		w.acp[pane] = s
	}
	w.mu.Unlock()
	if sig, ok := s.Observe(rs.ACP, ev); ok {
		t.Report(sig)
	}
}
