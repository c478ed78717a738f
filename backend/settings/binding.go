package settings

import (
	"errors"
	"fmt"
	"os"
)

// Dialogs opens native dialogs of the app window (backend/wailsui).
type Dialogs interface {
	// ChooseDirectory asks for a folder, starting in start; "" when cancelled.
	ChooseDirectory(title, start string) (string, error)
}

// ErrNoWindow: the folder dialog needs the app window (a headless server has none).
var ErrNoWindow = errors.New("the folder dialog needs the app window: type the folder's path instead")

// Binding is the Settings screen's Go API.
type Binding struct {
	store   *Store
	dialogs Dialogs
	home    string
}

// NewBinding binds s; dialogs may be nil (no window), home is where the
// folder dialog starts when no usable start folder is given.
func NewBinding(s *Store, dialogs Dialogs, home string) *Binding {
	return &Binding{store: s, dialogs: dialogs, home: home}
}

// Get returns the saved preferences.
func (b *Binding) Get() Prefs { return b.store.Get() }

// SetNotifications turns desktop notifications on or off.
func (b *Binding) SetNotifications(on bool) (Prefs, error) { return b.store.SetNotifications(on) }

// SetTerminal saves how panes look (Settings → Terminal); invalid values
// are refused with a message naming each wrong field, and nothing is saved.
func (b *Binding) SetTerminal(t TerminalPrefs) (Prefs, error) { return b.store.SetTerminal(t) }

// SetLayout saves the Terminal screen's split and which pane is in which
// slot; an invalid layout is refused with a message and nothing is saved.
func (b *Binding) SetLayout(l LayoutPrefs) (Prefs, error) { return b.store.SetLayout(l) }

// SetShortcuts saves the keyboard shortcuts the person changed (Settings →
// Keyboard): action id → key, "" for off. A key two shortcuts share is
// refused with a message naming both, and nothing is saved.
func (b *Binding) SetShortcuts(m map[string]string) (Prefs, error) { return b.store.SetShortcuts(m) }

// TerminalPalettes lists the built-in terminal colour palettes.
func (b *Binding) TerminalPalettes() []Palette { return TerminalPalettes }

// ChooseFolder opens the system's folder dialog in start (the home folder
// when start is not an existing folder) and returns the chosen folder, or
// "" when the person cancelled.
func (b *Binding) ChooseFolder(start string) (string, error) {
	if b.dialogs == nil {
		return "", ErrNoWindow
	}
	if info, err := os.Stat(start); start == "" || err != nil || !info.IsDir() {
		start = b.home
	}
	dir, err := b.dialogs.ChooseDirectory("Choose a folder for agent runs", start)
	if err != nil {
		return "", fmt.Errorf("opening the folder dialog: %w", err)
	}
	return dir, nil
}
