package settings

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestTheWindowFollowsTheSavedSwitchFromTheStart(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(`{"notifications":false}`), 0o600); err != nil {
		t.Fatal(err)
	}
	var seen []bool
	_, b, err := OpenForWindow(dir, nil, dir, func(p Prefs) { seen = append(seen, p.Notifications) })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.SetNotifications(true); err != nil {
		t.Fatal(err)
	}
	if want := []bool{false, true}; !slices.Equal(seen, want) {
		t.Fatalf("notifications followed %v, want %v (the saved switch at start, then the change)", seen, want)
	}
}

func TestADamagedFileStillOpensTheWindowOnTheDefaults(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(`{`), 0o600); err != nil {
		t.Fatal(err)
	}
	var on bool
	s, b, err := OpenForWindow(dir, nil, dir, func(p Prefs) { on = p.Notifications })
	if err == nil || s == nil || b == nil {
		t.Fatalf("OpenForWindow = %v, %v, %v; want a usable store and binding and the damage reported", s, b, err)
	}
	if !on || !b.Get().Notifications {
		t.Fatal("the defaults (notifications on) are not in use after a damaged file")
	}
}
