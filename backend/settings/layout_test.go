package settings

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestSetLayoutSavesAValidLayoutAndRefusesABrokenOne(t *testing.T) {
	cases := []struct {
		name string
		l    LayoutPrefs
		want string // part of the refusal; "" when saved
	}{
		{"grid", LayoutPrefs{Kind: "grid", Slots: []string{"a", "", "b", "c"}, Split: []float64{0.3, 0.7}, Focus: 3}, ""},
		{"columns, one slot filled", LayoutPrefs{Kind: "columns", Slots: []string{"a"}, Split: []float64{0.5, 0.5}, Focus: 1}, ""},
		{"3 side by side", LayoutPrefs{Kind: "columns3", Slots: []string{"a", "b", "c"}, Split: []float64{1.0 / 3, 2.0 / 3}, Focus: 2}, ""},
		{"3 stacked, middle slot at the minimum", LayoutPrefs{Kind: "rows3", Slots: []string{"a"}, Split: []float64{0.3, 0.3 + MinSplit}}, ""},
		{"3 side by side, dividers too close", LayoutPrefs{Kind: "columns3", Slots: []string{}, Split: []float64{0.5, 0.6}}, "middle slot must be at least 15%"},
		{"3 stacked, dividers crossed", LayoutPrefs{Kind: "rows3", Slots: []string{}, Split: []float64{0.7, 0.3}}, "move the second divider past the first"},
		{"3 side by side, a fourth slot", LayoutPrefs{Kind: "columns3", Slots: []string{"a", "b", "c", "d"}, Split: []float64{0.3, 0.6}}, "The columns3 layout has 3 slots, not 4."},
		{"unknown kind", LayoutPrefs{Kind: "tabs", Split: []float64{0.5, 0.5}}, `Unknown layout "tabs"`},
		{"too many slots", LayoutPrefs{Kind: "rows", Slots: []string{"a", "b", "c"}, Split: []float64{0.5, 0.5}}, "The rows layout has 2 slots, not 3."},
		{"focus outside", LayoutPrefs{Kind: "single", Slots: []string{"a"}, Split: []float64{0.5, 0.5}, Focus: 1}, "from 1 to 1"},
		{"a pane twice", LayoutPrefs{Kind: "columns", Slots: []string{"a", "a"}, Split: []float64{0.5, 0.5}}, "Pane a is in two slots."},
		{"divider at the edge", LayoutPrefs{Kind: "columns", Slots: []string{}, Split: []float64{0.95, 0.5}}, "between 15% and 85%"},
		{"no split", LayoutPrefs{Kind: "columns", Slots: []string{}}, "two positions"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			s, _ := Open(dir)
			got, err := s.SetLayout(tc.l)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("SetLayout: %v", err)
				}
				again, _ := Open(dir)
				if !reflect.DeepEqual(again.Get().Layout, tc.l) {
					t.Fatalf("after a restart layout = %+v, want %+v", again.Get().Layout, tc.l)
				}
				return
			}
			if !errors.Is(err, ErrInvalidLayout) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("SetLayout = %v, want ErrInvalidLayout saying %q", err, tc.want)
			}
			if !reflect.DeepEqual(got.Layout, DefaultLayout()) {
				t.Fatalf("a refused layout returned %+v, want the default", got.Layout)
			}
		})
	}
}

func TestSetShortcutsRefusesAKeyTwoShortcutsShare(t *testing.T) {
	cases := []struct {
		name string
		m    map[string]string
		want string
	}{
		{"changed and off", map[string]string{"newPane": "Ctrl+Alt+N", "closePane": "", "sheet": "?", "nextPane": "Shift+Meta+]"}, ""},
		{"shared key", map[string]string{"newPane": "Ctrl+Shift+T", "board": "Ctrl+Shift+T"}, "Ctrl+Shift+T is used by both board and newPane"},
		{"unknown action", map[string]string{"launchRockets": "Ctrl+Shift+L"}, `Unknown shortcut "launchRockets"`},
		{"not a key", map[string]string{"board": "Shift+Ctrl+B"}, `"Shift+Ctrl+B" is not a key`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			s, _ := Open(dir)
			_, err := s.SetShortcuts(tc.m)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("SetShortcuts: %v", err)
				}
				again, _ := Open(dir)
				if !reflect.DeepEqual(again.Get().Shortcuts, tc.m) {
					t.Fatalf("after a restart shortcuts = %v, want %v", again.Get().Shortcuts, tc.m)
				}
				return
			}
			if !errors.Is(err, ErrInvalidShortcut) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("SetShortcuts = %v, want ErrInvalidShortcut saying %q", err, tc.want)
			}
			if _, err := os.Stat(filepath.Join(dir, FileName)); !os.IsNotExist(err) {
				t.Fatal("a refused change wrote the settings file")
			}
		})
	}
}

func TestAHandEditedLayoutFallsBackToOnePane(t *testing.T) {
	dir := t.TempDir()
	raw := `{"notifications":true,"layout":{"kind":"grid","slots":["a","a"],"split":[0.5,0.5]},"shortcuts":{"board":"nonsense"}}`
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(raw), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p := s.Get(); !reflect.DeepEqual(p.Layout, DefaultLayout()) || len(p.Shortcuts) != 0 {
		t.Fatalf("got layout %+v shortcuts %v, want the defaults", p.Layout, p.Shortcuts)
	}
}
