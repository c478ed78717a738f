package settings

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNotificationsAreOnUntilTurnedOff(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	if !s.Get().Notifications {
		t.Fatal("a new install has notifications off; want on")
	}
	var seen []bool
	s.OnChange(func(p Prefs) { seen = append(seen, p.Notifications) })
	if _, err := s.SetNotifications(false); err != nil {
		t.Fatalf("SetNotifications: %v", err)
	}
	again, err := Open(dir)
	if err != nil {
		t.Fatalf("reopening: %v", err)
	}
	if again.Get().Notifications {
		t.Fatal("notifications are on again after a restart; want the saved off")
	}
	if len(seen) != 1 || seen[0] {
		t.Fatalf("OnChange saw %v, want [false]", seen)
	}
	info, err := os.Stat(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	if m := info.Mode().Perm(); m&0o077 != 0 {
		t.Fatalf("settings file mode %v, want owner-only", m)
	}
}

func TestFollowAppliesTheSavedSettingAtOnceAndEveryChange(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(`{"notifications": false}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var applied []bool
	s.Follow(func(p Prefs) { applied = append(applied, p.Notifications) })
	if _, err := s.SetNotifications(true); err != nil {
		t.Fatal(err)
	}
	if len(applied) != 2 || applied[0] || !applied[1] {
		t.Fatalf("applied %v, want [false true] (the saved off at start, then on)", applied)
	}
}

func TestDamagedFileKeepsDefaultsAndSaysWhatToDo(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	if err := os.WriteFile(path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(dir)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "delete") {
		t.Fatalf("Open error = %v, want one naming %s and what to do", err, path)
	}
	if s == nil || !s.Get().Notifications {
		t.Fatal("a damaged file must still give a store with the defaults")
	}
	if _, err := s.SetNotifications(false); err != nil {
		t.Fatalf("saving over a damaged file: %v", err)
	}
	if again, err := Open(dir); err != nil || again.Get().Notifications {
		t.Fatalf("after saving: %v, notifications %v", err, again.Get().Notifications)
	}
}

type fakeDialogs struct {
	title, start string
	pick         string
	err          error
}

func (f *fakeDialogs) ChooseDirectory(title, start string) (string, error) {
	f.title, f.start = title, start
	return f.pick, f.err
}

func TestChooseFolder(t *testing.T) {
	home := t.TempDir()
	existing := t.TempDir()
	cases := []struct {
		name      string
		start     string
		pick      string
		dialogErr error
		noWindow  bool
		want      string
		wantStart string
		wantErr   string
	}{
		{name: "picked", start: existing, pick: "/home/you/site", want: "/home/you/site", wantStart: existing},
		{name: "cancelled", pick: "", want: "", wantStart: home},
		{name: "start folder gone", start: filepath.Join(existing, "gone"), pick: "/x", want: "/x", wantStart: home},
		{name: "dialog fails", dialogErr: errors.New("no display"), wantErr: "opening the folder dialog: no display"},
		{name: "no window", noWindow: true, wantErr: "type the folder's path"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			f := &fakeDialogs{pick: tc.pick, err: tc.dialogErr}
			var d Dialogs = f
			if tc.noWindow {
				d = nil
			}
			b := NewBinding(s, d, home)
			got, err := b.ChooseFolder(tc.start)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ChooseFolder: %v", err)
			}
			if got != tc.want || f.start != tc.wantStart || f.title == "" {
				t.Fatalf("got %q (dialog started in %q, title %q), want %q in %q", got, f.start, f.title, tc.want, tc.wantStart)
			}
		})
	}
}
