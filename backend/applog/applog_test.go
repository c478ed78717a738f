package applog

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestTrimKeepsTheEarlierPartAndBoundsTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "osfoundry.log")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	old := strings.Repeat("early line\n", 200)
	f.WriteString(old)
	trim(f, path, 100)
	f.WriteString("after the trim\n")
	kept, _ := os.ReadFile(path + ".1")
	if string(kept) != old {
		t.Fatalf(".1 holds %d bytes, want the %d written before the trim", len(kept), len(old))
	}
	now, _ := os.ReadFile(path)
	if len(now) > 200 || !strings.HasSuffix(string(now), "after the trim\n") {
		t.Fatalf("log after trim = %q; want a short file ending with the new line", now)
	}
	trim(f, path, 1<<20) // under the bound: nothing moves
	if again, _ := os.ReadFile(path); string(again) != string(now) {
		t.Fatalf("a log under the bound was changed")
	}
}

// A crash report from the Go runtime (written straight to descriptor 2)
// ends up in the log: the text a user most needs when a double-clicked app
// vanished.
func TestRedirectCatchesACrashReport(t *testing.T) {
	if dir := os.Getenv("APPLOG_TEST_CRASH"); dir != "" {
		if _, err := Redirect(dir); err != nil {
			t.Fatal(err)
		}
		os.Stderr.WriteString("before the crash\n")
		panic("a crash in the window app")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run", "^TestRedirectCatchesACrashReport$")
	cmd.Env = append(os.Environ(), "APPLOG_TEST_CRASH="+dir)
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the crashing child exited 0: %s", out)
	}
	if strings.Contains(string(out), "a crash in the window app") {
		t.Fatalf("the crash report went to the old stderr, not the log:\n%s", out)
	}
	log, err := os.ReadFile(Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"=== osFoundry started", "before the crash", "panic: a crash in the window app", "goroutine "} {
		if !strings.Contains(string(log), want) {
			t.Fatalf("log lacks %q:\n%s", want, log)
		}
	}
}
