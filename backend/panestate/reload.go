package panestate

import (
	"fmt"

	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/rules"
)

// Reload reads the rules again (the bundled files with the overrides under
// home, as at start) and applies them to every pane at once: what a rules
// update does without a restart. Broken overrides are returned, as at
// start; the rules in use then are the bundled ones for those agents.
func (w *Watcher) Reload(home string) ([]error, error) {
	reg, problems, err := detect.Load(rules.Files, home)
	if err != nil {
		return nil, fmt.Errorf("reloading the agent detection rules: %w", err)
	}
	w.cfg.Registry.Replace(reg)
	w.mu.Lock()
	ids := make([]string, 0, len(w.states))
	for id := range w.states {
		ids = append(ids, id)
	}
	w.mu.Unlock()
	for _, id := range ids {
		if t := w.mon.Tracker(id); t != nil {
			t.ScreenChanged() // re-read with the new rules shortly
		}
	}
	return problems, nil
}
