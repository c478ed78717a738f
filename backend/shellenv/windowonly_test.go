package shellenv

import (
	"os"
	"slices"
	"testing"
)

func TestSetForWindowStaysOutOfChildren(t *testing.T) {
	const mine, theirs = "OSF_TEST_WINDOW_PAINTER", "OSF_TEST_WINDOW_THEIRS"
	t.Cleanup(func() {
		os.Unsetenv(mine)
		windowOnly.mu.Lock()
		windowOnly.names = nil
		windowOnly.mu.Unlock()
	})
	t.Setenv(theirs, "0") // the person's own choice
	if set, err := SetForWindow(theirs, "1"); err != nil || set {
		t.Fatalf("SetForWindow over the person's value: set=%v err=%v", set, err)
	}
	if got := os.Getenv(theirs); got != "0" {
		t.Fatalf("the person's %s became %q", theirs, got)
	}
	if set, err := SetForWindow(mine, "1"); err != nil || !set {
		t.Fatalf("SetForWindow: set=%v err=%v", set, err)
	}
	if got := os.Getenv(mine); got != "1" {
		t.Fatalf("the window's own environment has %s=%q, want 1", mine, got)
	}
	env := Result{set: [][2]string{{"PATH", "/opt/x/bin"}}}.Environ()
	if slices.Contains(env, mine+"=1") {
		t.Fatalf("children inherit the window's %s", mine)
	}
	if !slices.Contains(env, theirs+"=0") || !slices.Contains(env, "PATH=/opt/x/bin") {
		t.Fatalf("children lost the person's variables or the merge: %v", env)
	}
}
