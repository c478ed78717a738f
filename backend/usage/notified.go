package usage

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// The windows already notified are kept in Options.NotifiedFile, so a
// restart of the app in the middle of a window past 80 % does not notify
// it again: once per window, not once per start. Each key keeps the end
// of its window (epoch ms); ended windows are dropped when it is saved.

// loadNotified reads the kept keys; a missing or unreadable file starts
// empty (the worst case is one repeated notification).
func (s *Service) loadNotified() {
	if s.opts.NotifiedFile == "" {
		return
	}
	b, err := os.ReadFile(s.opts.NotifiedFile)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintln(os.Stderr, "osfoundry: reading the usage notifications already shown:", err)
		}
		return
	}
	var kept map[string]int64
	if err := json.Unmarshal(b, &kept); err != nil {
		fmt.Fprintf(os.Stderr, "osfoundry: %s is not the app's list of usage notifications (%v): starting a new one\n", s.opts.NotifiedFile, err)
		return
	}
	for k, end := range kept {
		s.notified[k] = true
		s.ends[k] = end
	}
}

// markNotified records key (a window ending at end, epoch ms; 0 when the
// end is unknown) and saves the keys of windows not yet over.
func (s *Service) markNotified(key string, end, now int64) {
	s.notified[key] = true
	s.ends[key] = end
	if s.opts.NotifiedFile == "" {
		return
	}
	kept := map[string]int64{}
	for k, e := range s.ends {
		if e == 0 || e > now {
			kept[k] = e
		}
	}
	b, _ := json.Marshal(kept) // a map of strings to ints always encodes
	if err := os.MkdirAll(filepath.Dir(s.opts.NotifiedFile), 0o700); err == nil {
		tmp := s.opts.NotifiedFile + ".tmp"
		if err = os.WriteFile(tmp, b, 0o600); err == nil {
			err = os.Rename(tmp, s.opts.NotifiedFile)
		}
		if err == nil {
			return
		}
	}
	fmt.Fprintln(os.Stderr, "osfoundry: saving the usage notifications shown failed; a restart may show one again")
}
