// Package settings keeps the person's app preferences (desktop
// notifications on or off, per-channel tool overrides, how terminal panes
// look) in a small JSON file in the data folder, and
// binds the Settings screen's calls, including the native folder dialog
// through a Dialogs interface (the Wails runtime lives in backend/wailsui;
// this package never imports it).
package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// FileName is the settings file inside the data folder.
const FileName = "settings.json"

// Prefs are the person's preferences.
type Prefs struct {
	// Notifications: a desktop notification when an agent needs the person.
	Notifications bool `json:"notifications"`
	// Channels are the tool overrides per executor channel ("pipeline"),
	// set in Settings → Tool policy (backend/toolpolicy applies them).
	Channels map[string]ChannelOverride `json:"channels,omitempty"`
	// Terminal is how panes look and how much of their output is kept
	// (Settings → Terminal).
	Terminal TerminalPrefs `json:"terminal"`
	// Layout is the Terminal screen's split and which pane is in which slot.
	Layout LayoutPrefs `json:"layout"`
	// Shortcuts are the keyboard shortcuts the person changed (Settings →
	// Keyboard): action id → key, "" when turned off.
	Shortcuts map[string]string `json:"shortcuts"`
}

// ChannelOverride narrows the app's tools on one channel: Disabled are
// refused, ForceApproval ask the person first ("*" means every tool).
type ChannelOverride struct {
	Disabled      []string `json:"disabled,omitempty"`
	ForceApproval []string `json:"forceApproval,omitempty"`
}

// Defaults are the preferences of a new install.
func Defaults() Prefs {
	return Prefs{Notifications: true, Terminal: DefaultTerminal(), Layout: DefaultLayout(), Shortcuts: map[string]string{}}
}

// Store reads and writes the settings file. Safe for concurrent use.
type Store struct {
	path string

	mu       sync.Mutex
	prefs    Prefs
	onChange []func(Prefs)
}

// Open reads dir's settings file; a missing file gives the defaults. A
// damaged file also gives a usable Store with the defaults, plus an error
// that says so (the next change overwrites the file).
func Open(dir string) (*Store, error) {
	s := &Store{path: filepath.Join(dir, FileName), prefs: Defaults()}
	b, err := os.ReadFile(s.path)
	if errors.Is(err, os.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, fmt.Errorf("reading settings %s: %w (defaults are used)", s.path, err)
	}
	p := Defaults()
	if err := json.Unmarshal(b, &p); err != nil {
		return s, fmt.Errorf("settings file %s is damaged (%v): defaults are used until you change a setting; delete the file to start over", s.path, err)
	}
	if err := p.Layout.Check(); err != nil {
		p.Layout = DefaultLayout() // a hand-edited layout: one pane at a time
	}
	if p.Shortcuts == nil || CheckShortcuts(p.Shortcuts) != nil {
		p.Shortcuts = map[string]string{} // a hand-edited key: the defaults
	}
	if err := p.Terminal.Check(); err != nil {
		// A hand-edited value out of range: panes use the defaults until the
		// person saves Settings → Terminal again.
		p.Terminal = DefaultTerminal()
		s.prefs = p
		return s, fmt.Errorf("settings file %s: %w (the terminal defaults are used)", s.path, err)
	}
	s.prefs = p
	return s, nil
}

// Get returns the current preferences.
func (s *Store) Get() Prefs {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.prefs
}

// OnChange registers f, called with the new preferences after each saved change.
func (s *Store) OnChange(f func(Prefs)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onChange = append(s.onChange, f)
}

// Follow calls apply with the current preferences now and after every
// saved change: what a setting controls is right from the start.
func (s *Store) Follow(apply func(Prefs)) {
	s.mu.Lock()
	p := s.prefs
	s.onChange = append(s.onChange, apply)
	s.mu.Unlock()
	apply(p)
}

// SetNotifications turns desktop notifications on or off and saves it.
func (s *Store) SetNotifications(on bool) (Prefs, error) {
	return s.update(func(p *Prefs) { p.Notifications = on })
}

// SetChannel saves one channel's tool overrides; the zero override
// removes them. The caller checks the names (backend/toolpolicy).
func (s *Store) SetChannel(channel string, o ChannelOverride) (Prefs, error) {
	return s.update(func(p *Prefs) {
		next := make(map[string]ChannelOverride, len(p.Channels)+1)
		for k, v := range p.Channels {
			next[k] = v
		}
		if len(o.Disabled) == 0 && len(o.ForceApproval) == 0 {
			delete(next, channel)
		} else {
			next[channel] = o
		}
		p.Channels = next
	})
}

func (s *Store) update(change func(*Prefs)) (Prefs, error) {
	s.mu.Lock()
	next := s.prefs
	change(&next)
	if err := s.write(next); err != nil {
		s.mu.Unlock()
		return s.Get(), err
	}
	s.prefs = next
	fns := append([]func(Prefs){}, s.onChange...)
	s.mu.Unlock()
	for _, f := range fns {
		f(next)
	}
	return next, nil
}

// write replaces the file atomically (a crash never leaves half a file).
func (s *Store) write(p Prefs) error {
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding settings: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.path), ".settings-*.json")
	if err != nil {
		return fmt.Errorf("saving settings: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("saving settings: %w", err)
	}
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("saving settings: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("saving settings: %w", err)
	}
	if err := os.Rename(tmp.Name(), s.path); err != nil {
		return fmt.Errorf("saving settings %s: %w", s.path, err)
	}
	return nil
}
