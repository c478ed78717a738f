//go:build !windows

package launch

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// rig is an install folder with the command line and a scripted window
// app, and a fake zenity on PATH that records the message box it was asked
// to show.
type rig struct {
	dir, me, boxLog string
}

func newRig(t *testing.T, window string) *rig {
	t.Helper()
	r := &rig{dir: t.TempDir()}
	r.me = filepath.Join(r.dir, CLIName)
	write(t, r.me, "#!/bin/sh\n")
	if window != "" {
		write(t, filepath.Join(r.dir, WindowName), "#!/bin/sh\n"+window)
	}
	bin := t.TempDir()
	r.boxLog = filepath.Join(bin, "box.log")
	write(t, filepath.Join(bin, "zenity"), "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done >\""+r.boxLog+"\"\n")
	t.Setenv("PATH", bin+":/usr/bin:/bin")
	t.Setenv("DISPLAY", ":99")
	t.Setenv("WAYLAND_DISPLAY", "")
	return r
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
}

func (r *rig) box() string {
	b, _ := os.ReadFile(r.boxLog)
	return string(b)
}

func TestAMissingWebKitSaysWhatToInstall(t *testing.T) {
	r := newRig(t, `echo "$0: error while loading shared libraries: libwebkit2gtk-4.1.so.0: cannot open shared object file: No such file or directory" >&2; exit 127`)
	var errOut bytes.Buffer
	if code := openBeside(r.me, nil, &errOut); code != 1 {
		t.Fatalf("exit code %d, want 1", code)
	}
	box := r.box()
	for _, want := range []string{"--error", "osFoundry could not start", "WebKitGTK 4.1", "sudo apt install libwebkit2gtk-4.1-0", "libwebkit2gtk-4.1.so.0"} {
		if !strings.Contains(box, want) {
			t.Errorf("message box lacks %q:\n%s", want, box)
		}
	}
	if !strings.Contains(errOut.String(), "libwebkit2gtk-4.1-0") {
		t.Errorf("the terminal was not told either: %q", errOut.String())
	}
}

func TestAWindowThatShowedItsOwnErrorGetsNoSecondBox(t *testing.T) {
	r := newRig(t, "echo 'database is locked' >&2; exit 3")
	if code := openBeside(r.me, nil, &bytes.Buffer{}); code != ExitShown {
		t.Fatalf("exit code %d, want %d", code, ExitShown)
	}
	if box := r.box(); box != "" {
		t.Fatalf("a second message box was shown:\n%s", box)
	}
}

// A window that starts normally moves its output to its log (closing the
// launcher's pipe) and runs on after the launcher returns, with the args
// and the request to log to its file.
func TestAStartedWindowRunsOnWithItsArgs(t *testing.T) {
	got := filepath.Join(t.TempDir(), "got")
	r := newRig(t, `printf '%s|%s' "$*" "$OSF_LOG_TO_FILE" >"`+got+`.tmp"; mv "`+got+`.tmp" "`+got+`"; exec 2>&-; sleep 3`)
	start := time.Now()
	if code := openBeside(r.me, []string{"osfoundry://pane/p1?t=x"}, &bytes.Buffer{}); code != 0 {
		t.Fatalf("exit code %d, want 0", code)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("the launcher waited %v for a window that runs on", d)
	}
	b, err := os.ReadFile(got)
	if err != nil {
		t.Fatalf("the window app did not run: %v", err)
	}
	if string(b) != "osfoundry://pane/p1?t=x|1" {
		t.Fatalf("window app got %q", b)
	}
	if box := r.box(); box != "" {
		t.Fatalf("a message box was shown for a good start:\n%s", box)
	}
}

func TestNoWindowAppBesideTheCommandLine(t *testing.T) {
	r := newRig(t, "")
	if code := openBeside(r.me, nil, &bytes.Buffer{}); code != 1 {
		t.Fatalf("exit code %d, want 1", code)
	}
	if box := r.box(); !strings.Contains(box, "is not installed beside") || !strings.Contains(box, "osfoundry help") {
		t.Fatalf("message box = %q", box)
	}
}

func TestSiblingsInABuildFolderAndAMacBundle(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, CLIName), "#!/bin/sh\n")
	if got := firstFile(siblings(dir, CLIName)); got != filepath.Join(dir, CLIName) {
		t.Fatalf("beside: %q", got)
	}
	app := filepath.Join(t.TempDir(), "osFoundry.app", "Contents")
	os.MkdirAll(filepath.Join(app, "MacOS"), 0o755)
	os.MkdirAll(filepath.Join(app, "Resources"), 0o755)
	write(t, filepath.Join(app, "Resources", CLIName), "#!/bin/sh\n")
	write(t, filepath.Join(app, "MacOS", WindowName), "#!/bin/sh\n")
	if got := firstFile(siblings(filepath.Join(app, "MacOS"), CLIName)); got != filepath.Join(app, "Resources", CLIName) {
		t.Fatalf("bundle CLI: %q", got)
	}
	if got := firstFile(siblings(filepath.Join(app, "Resources"), WindowName)); got != filepath.Join(app, "MacOS", WindowName) {
		t.Fatalf("bundle window: %q", got)
	}
	os.WriteFile(filepath.Join(dir, WindowName), []byte("not executable"), 0o644)
	if got := firstFile(siblings(dir, WindowName)); got != "" {
		t.Fatalf("a non-executable file was taken for the window app: %q", got)
	}
}

// A window that moved its output to its log and then crashed: the box
// shows what this start wrote there, not the starts before it.
func TestACrashAfterTheLogTookOverShowsTheLog(t *testing.T) {
	data := t.TempDir()
	t.Setenv("OSFOUNDRY_HOME", data)
	log := filepath.Join(data, "logs", "osfoundry.log")
	os.MkdirAll(filepath.Dir(log), 0o700)
	os.WriteFile(log, []byte("=== osFoundry started yesterday ===\nold trouble\n"), 0o600)
	r := newRig(t, `printf '\n=== osFoundry started now (pid 1) ===\npanic: failed to init GTK\n' >>"`+log+`"; exec 2>&-; exit 2`)
	if code := openBeside(r.me, nil, &bytes.Buffer{}); code != 1 {
		t.Fatalf("exit code %d, want 1", code)
	}
	box := r.box()
	if !strings.Contains(box, "could not open a window on this display") || !strings.Contains(box, "panic: failed to init GTK") {
		t.Fatalf("message box = %q", box)
	}
	if strings.Contains(box, "old trouble") {
		t.Fatalf("the box shows an earlier start's log: %q", box)
	}
}
