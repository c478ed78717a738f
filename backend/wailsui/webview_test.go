package wailsui

import (
	"os"
	"runtime"
	"testing"
)

// On Linux the window asks GTK for its dark theme (the web view's native
// dropdown menus follow it) and collects the whole JavaScript heap, each
// only when the person has not set the variable.
func TestTuneWebViewSetsWhatThePersonDidNot(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("WebKitGTK only")
	}
	t.Setenv(darkThemeVar, "")
	os.Unsetenv(darkThemeVar)
	t.Setenv(fullCollectionsVar, "true") // the person's own choice
	if err := TuneWebView(); err != nil {
		t.Fatal(err)
	}
	if got := os.Getenv(darkThemeVar); got != "Adwaita:dark" {
		t.Errorf("%s = %q, want Adwaita:dark", darkThemeVar, got)
	}
	if got := os.Getenv(fullCollectionsVar); got != "true" {
		t.Errorf("%s = %q, want the person's true kept", fullCollectionsVar, got)
	}
	t.Setenv(darkThemeVar, "Yaru")
	if err := TuneWebView(); err != nil {
		t.Fatal(err)
	}
	if got := os.Getenv(darkThemeVar); got != "Yaru" {
		t.Errorf("%s = %q, want the person's Yaru kept", darkThemeVar, got)
	}
}
