//go:build !windows

package tools

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/osfoundry/desktop/backend/store"
)

// TestMain lets TestAuditSurvivesSIGKILL re-run this binary as a process
// that records calls and is killed before any reaches the database.
func TestMain(m *testing.M) {
	if dir := os.Getenv("OSF_AUDIT_KILL_DIR"); dir != "" {
		db, err := store.Open(filepath.Join(dir, store.FileName))
		if err != nil {
			panic(err)
		}
		a, err := NewSQLAuditor(context.Background(), db)
		if err != nil {
			panic(err)
		}
		// The background writer never gets to commit.
		a.j.insert = func(context.Context, []journalEntry) error { select {} }
		for i := range 5 {
			if err := a.Record(context.Background(), entry(i)); err != nil {
				panic(err)
			}
		}
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	}
	os.Exit(m.Run())
}

// A tool call is answered before its audit row is committed; the process
// is then killed. The next process to open the database has every row,
// once, and no journal is left behind.
func TestAuditSurvivesSIGKILL(t *testing.T) {
	dir := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "-test.run=^$")
	cmd.Env = append(os.Environ(), "OSF_AUDIT_KILL_DIR="+dir)
	out, err := cmd.CombinedOutput()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the recording process was not killed: %v\n%s", err, out)
	}
	for round := range 2 {
		a, closeA := openAuditor(t, dir)
		got := listed(t, a)
		if len(got) != 5 {
			t.Fatalf("round %d: after the kill the audit lists %v, want tool_0…tool_4", round, got)
		}
		for tool, n := range got {
			if n != 1 {
				t.Errorf("round %d: %s listed %d times", round, tool, n)
			}
		}
		if j := journals(t, dir); len(j) != 1 {
			t.Errorf("round %d: journals %v, want only the open auditor's", round, j)
		}
		closeA()
	}
	if j := journals(t, dir); len(j) != 0 {
		t.Errorf("journals left after Close: %v", j)
	}
}
