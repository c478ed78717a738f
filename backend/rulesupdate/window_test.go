package rulesupdate

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

type fakeRules struct {
	watched  []string
	watchErr error
	onReload func([]error)
	reloads  int
	problems []error
}

func (f *fakeRules) WatchRules(home string, onReload func([]error)) error {
	f.watched = append(f.watched, home)
	f.onReload = onReload
	return f.watchErr
}

func (f *fakeRules) Reload(string) ([]error, error) { f.reloads++; return f.problems, nil }

// The window follows the override folder: an edit there and an applied
// install both hand the Sessions board the overrides that could not be
// used.
func TestTheWindowShowsBrokenOverridesAfterEveryReload(t *testing.T) {
	broken := errors.New("claude.toml: line 3: not a rule")
	rules := &fakeRules{problems: []error{broken}}
	var shown [][]error
	b, err := ForWindow("/home/p", rules, func(p []error) { shown = append(shown, p) })
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rules.watched, []string{"/home/p"}) {
		t.Fatalf("watched %q, want the home folder once", rules.watched)
	}
	rules.onReload([]error{broken}) // the person saved an override
	if _, err := b.reload(); err != nil {
		t.Fatal(err)
	}
	if len(shown) != 2 || rules.reloads != 1 || shown[1][0] != broken {
		t.Fatalf("shown %v after %d reloads, want the broken override after the edit and after the install", shown, rules.reloads)
	}
}

// A folder that cannot be followed still leaves Settings working, and says
// when edits apply.
func TestAnUnfollowedFolderStillGivesABinding(t *testing.T) {
	rules := &fakeRules{watchErr: errors.New("too many open files")}
	b, err := ForWindow("/home/p", rules, func([]error) {})
	if b == nil || err == nil || !strings.Contains(err.Error(), "apply at the next start") {
		t.Fatalf("ForWindow = %v, %v; want a binding and an error saying edits apply at the next start", b, err)
	}
}
