package settings

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/osfoundry/desktop/backend/lazy"
)

// LayoutPrefs is how the Terminal screen is split and which pane shows in
// which slot, restored at the next start (pane ids survive a restart).
type LayoutPrefs struct {
	// Kind is one of LayoutKinds: "single", "columns" (side by side),
	// "columns3" (3 side by side), "rows" (stacked), "rows3" (3 stacked)
	// or "grid" (2×2).
	Kind string `json:"kind"`
	// Slots holds the pane id shown in each slot, "" for an empty slot.
	Slots []string `json:"slots"`
	// Split is where the dividers are, as a fraction of the width (first)
	// and of the height (second); in columns3 and rows3 both dividers, in
	// order, along the same side.
	Split []float64 `json:"split"`
	// Focus is the slot the keyboard is in (0-based).
	Focus int `json:"focus"`
}

// LayoutKinds are the Terminal's split layouts and how many slots each has.
var LayoutKinds = map[string]int{"single": 1, "columns": 2, "columns3": 3, "rows": 2, "rows3": 3, "grid": 4}

// Bounds of a divider, so no slot gets too small to read.
const MinSplit, MaxSplit = 0.15, 0.85

// DefaultLayout is one pane at a time, as before the split existed.
func DefaultLayout() LayoutPrefs {
	return LayoutPrefs{Kind: "single", Slots: []string{}, Split: []float64{0.5, 0.5}}
}

// ErrInvalidLayout wraps every refusal of SetLayout.
var ErrInvalidLayout = errors.New("invalid terminal layout")

// Check says what is wrong with l, or nil.
func (l LayoutPrefs) Check() error {
	n, ok := LayoutKinds[l.Kind]
	var errs []string
	if !ok {
		errs = append(errs, fmt.Sprintf("Unknown layout %q: choose single, columns, columns3, rows, rows3 or grid.", l.Kind))
	} else {
		if len(l.Slots) > n {
			errs = append(errs, fmt.Sprintf("The %s layout has %d slots, not %d.", l.Kind, n, len(l.Slots)))
		}
		if l.Focus < 0 || l.Focus >= n {
			errs = append(errs, fmt.Sprintf("The focused slot must be from 1 to %d.", n))
		}
	}
	seen := map[string]bool{}
	for _, id := range l.Slots {
		if id != "" && seen[id] {
			errs = append(errs, fmt.Sprintf("Pane %s is in two slots.", id))
		}
		seen[id] = true
	}
	if len(l.Split) != 2 {
		errs = append(errs, "The split needs two positions (across, down).")
	}
	for _, f := range l.Split {
		if !(f >= MinSplit && f <= MaxSplit) {
			errs = append(errs, "A divider must be between 15% and 85% of the screen.")
			break
		}
	}
	// The middle slot of three: its dividers in order, far enough apart
	// (a little slack for fractions that do not add up exactly).
	if (l.Kind == "columns3" || l.Kind == "rows3") && len(l.Split) == 2 && l.Split[1]-l.Split[0] < MinSplit-1e-9 {
		errs = append(errs, "The middle slot must be at least 15% of the screen: move the second divider past the first.")
	}
	if len(errs) > 0 {
		return fmt.Errorf("%w: %s", ErrInvalidLayout, strings.Join(errs, " "))
	}
	return nil
}

// SetLayout checks and saves the Terminal's layout; an invalid one is
// refused with ErrInvalidLayout and nothing is saved.
func (s *Store) SetLayout(l LayoutPrefs) (Prefs, error) {
	if l.Slots == nil {
		l.Slots = []string{}
	}
	if err := l.Check(); err != nil {
		return s.Get(), err
	}
	return s.update(func(p *Prefs) { p.Layout = l })
}

// ShortcutActions are the app's keyboard shortcuts by id; the keys each
// one has by default depend on the platform and live with the frontend
// (frontend/src/lib/shortcuts.ts), which also refuses a key that another
// shortcut or the app already uses.
var ShortcutActions = []string{
	"newPane", "nextPane", "prevPane", "closePane",
	"focusSlot1", "focusSlot2", "focusSlot3", "focusSlot4",
	"board", "needsYou", "sheet",
}

// A key as the frontend writes it: modifiers in a fixed order, then the
// key ("Ctrl+Shift+T", "Meta+.", "Alt+1", "?"); "" turns a shortcut off.
var keyPattern = lazy.Regexp(`^(Ctrl\+)?(Alt\+)?(Shift\+)?(Meta\+)?([A-Z0-9]|F[0-9]{1,2}|[\[\]\\;',./\x60=?-]|PageUp|PageDown|Home|End|Tab|Enter|Escape|Backspace|Delete|Insert|Arrow(Up|Down|Left|Right)|Space)$`)

// ErrInvalidShortcut wraps every refusal of SetShortcuts.
var ErrInvalidShortcut = errors.New("invalid keyboard shortcut")

// CheckShortcuts says what is wrong with the person's changed shortcuts
// (action id → key, "" for off), or nil.
func CheckShortcuts(m map[string]string) error {
	var errs []string
	used := map[string]string{}
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		key := m[id]
		if !slices.Contains(ShortcutActions, id) {
			errs = append(errs, fmt.Sprintf("Unknown shortcut %q.", id))
			continue
		}
		if key == "" {
			continue
		}
		if !keyPattern().MatchString(key) {
			errs = append(errs, fmt.Sprintf("%q is not a key osFoundry can use for %s.", key, id))
			continue
		}
		if other, ok := used[key]; ok {
			errs = append(errs, fmt.Sprintf("%s is used by both %s and %s: give one of them another key.", key, other, id))
		}
		used[key] = id
	}
	if len(errs) > 0 {
		return fmt.Errorf("%w: %s", ErrInvalidShortcut, strings.Join(errs, " "))
	}
	return nil
}

// SetShortcuts saves the person's changed shortcuts (the ones left out
// keep their default keys); invalid ones are refused and nothing is saved.
func (s *Store) SetShortcuts(m map[string]string) (Prefs, error) {
	if err := CheckShortcuts(m); err != nil {
		return s.Get(), err
	}
	next := make(map[string]string, len(m))
	for k, v := range m {
		next[k] = v
	}
	return s.update(func(p *Prefs) { p.Shortcuts = next })
}
