package panestate

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/panehook"
	"github.com/osfoundry/desktop/backend/terminal"
)

// A hook that reports before the pane's tracker exists (a fast program's
// first Notification hook, racing the pane's creation) still counts: the
// pane reaches Needs you once it is known.
func TestHookReportBeforeThePaneIsKnownCounts(t *testing.T) {
	r := newRig(t, Config{})
	bin := filepath.Join(t.TempDir(), "claude")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\nsleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A restored pane keeps its saved id, so the report can name the pane
	// before it exists.
	const id = "p-early0000001"
	specs := &memSpecs{specs: map[string]terminal.Spec{id: {ID: id, Dir: t.TempDir(), Argv: []string{bin}, Cols: 100, Rows: 30, Position: 1}}}
	r.mgr.SetStore(specs)
	r.w.onHook(panehook.Report{Pane: id, Kind: "notify",
		Payload: []byte(`{"notification_type":"permission_prompt","message":"Claude needs your permission to use Bash"}`)})
	if err := r.mgr.Restore(os.Environ()); err != nil {
		t.Fatal(err)
	}
	r.waitState(id, "blocked", time.Time{})
	if st, _ := r.w.State(id); st.Source != "hook" || st.Message != "Claude needs your permission to use Bash" {
		t.Fatalf("state = %+v, want blocked from the early hook with its message", st)
	}
}
