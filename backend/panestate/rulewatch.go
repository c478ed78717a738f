package panestate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/osfoundry/desktop/backend/detect"
)

// rulesSettle is how long the override folder must be quiet before the
// rules are read again: an editor's save or a bundle install is a burst of
// events, and one reload covers it.
const rulesSettle = 250 * time.Millisecond

// WatchRules reloads the rules (Reload) whenever the override folder under
// home changes: a file the person edits, or a bundle `osfoundry rules
// update` installs by swapping the folder. onReload, if set, gets what each
// reload found. It runs until Close.
func (w *Watcher) WatchRules(home string, onReload func(problems []error)) error {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watching the detection rules folder: %w", err)
	}
	dir := filepath.Join(home, detect.OverrideDir)
	parent := filepath.Dir(dir)
	// watch follows the folders as they come and go: the override folder
	// itself (edits), its parent (the folder swapped in by an update), or
	// home while even the parent does not exist yet.
	watch := func() {
		if _, err := os.Stat(parent); errors.Is(err, fs.ErrNotExist) {
			_ = fw.Add(home)
			return
		}
		_ = fw.Remove(home)
		_ = fw.Add(parent)
		_ = fw.Add(dir) // fails harmlessly while it does not exist
	}
	watch()
	go func() {
		defer fw.Close()
		var settle <-chan time.Time
		for {
			select {
			case <-w.stop:
				return
			case <-fw.Errors:
			case ev, ok := <-fw.Events:
				if !ok {
					return
				}
				if ev.Name == dir || ev.Name == parent || filepath.Dir(ev.Name) == dir {
					settle = time.After(rulesSettle)
				}
			case <-settle:
				settle = nil
				watch()
				problems, err := w.Reload(home)
				if err == nil && onReload != nil {
					onReload(problems)
				}
			}
		}
	}()
	return nil
}
