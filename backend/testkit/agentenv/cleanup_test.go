package agentenv

import (
	"context"
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"
)

// A process that detaches from the command's process group (as Codex's
// app-server daemon does) is still found by its marker and ended by PID.
func TestCleanupEndsDetachedProcesses(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the marker scan reads /proc (Linux only)")
	}
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("setsid not installed")
	}
	base := t.TempDir()
	e := &Env{Agent: "test", Bin: "/bin/bash", Base: base, Home: base, Work: base, marker: "cleanup-test-" + t.Name()}
	e.Env = []string{"PATH=" + os.Getenv("PATH"), MarkerVar + "=" + e.marker}
	cmd := e.Command(context.Background(), "-c", "setsid sleep 300 </dev/null >/dev/null 2>&1 & echo started")
	if out, err := cmd.Output(); err != nil || string(out) != "started\n" {
		t.Fatalf("starting the detached sleep: %q, %v", out, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(e.Processes()) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the detached process never showed up with the marker")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := e.Cleanup(); err != nil {
		t.Fatal(err)
	}
	if left := e.Processes(); len(left) != 0 {
		t.Fatalf("still running after Cleanup: %v", left)
	}
}
