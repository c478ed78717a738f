//go:build !windows

package panestate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/terminal"
)

// waitFor polls the pane's published state until ok says yes.
func (r *rig) waitFor(what, id string, ok func(PaneState) bool) PaneState {
	r.t.Helper()
	end := time.Now().Add(15 * time.Second)
	for time.Now().Before(end) {
		if st, _ := r.w.State(id); ok(st) {
			return st
		}
		time.Sleep(20 * time.Millisecond)
	}
	st, _ := r.w.State(id)
	r.t.Fatalf("pane never %s; state now %+v", what, st)
	return st
}

// A pane with no agent is working while a program other than its shell
// holds the terminal, or while it printed in the last few seconds; typing
// at the shell's prompt (the echo) is not work.
func TestNonAgentPaneWorksWhileItsProgramRunsOrPrints(t *testing.T) {
	r := newRig(t, Config{})
	dir := filepath.Join(t.TempDir(), "work")
	os.Mkdir(dir, 0o700)
	env := append(os.Environ(), "PS1=$ ", "HISTFILE=/dev/null")
	info, err := r.mgr.Create(terminal.Options{Dir: dir, Argv: []string{"bash", "--norc", "--noprofile"}, Env: env, Cols: 100, Rows: 30})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := r.mgr.Get(info.ID)
	r.waitFor("idle at its prompt", info.ID, func(s PaneState) bool { return s.State == "idle" })
	time.Sleep(quietAfter + time.Second)
	if st, _ := r.w.State(info.ID); st.State != "idle" {
		t.Fatalf("a shell at its prompt is %+v, want idle", st)
	}

	// Typing is echoed, but nothing runs yet.
	for _, c := range "echo abc" {
		p.Write([]byte(string(c)))
		time.Sleep(80 * time.Millisecond)
	}
	if st, _ := r.w.State(info.ID); st.State != "idle" {
		t.Fatalf("typing at the prompt made the pane %+v, want idle", st)
	}
	p.Write([]byte("\x15")) // clear the line

	// A loop of the shell itself that keeps printing while a file is
	// there. (Ctrl+C could be lost: a SIGINT that reaches bash between the
	// loop's commands, on a loaded machine, does not always end the loop.)
	flag := filepath.Join(dir, "printing")
	if err := os.WriteFile(flag, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	p.Write([]byte("while [ -e printing ]; do echo tick; sleep 0.3; done\r"))
	st := r.waitFor("working while it prints", info.ID, func(s PaneState) bool { return s.State == "working" })
	if st.Agent != "" || st.Source != "activity" {
		t.Fatalf("printing pane state %+v, want working from activity, no agent", st)
	}
	if err := os.Remove(flag); err != nil {
		t.Fatal(err)
	}
	r.waitFor("idle a few seconds after it stopped printing", info.ID, func(s PaneState) bool { return s.State == "idle" })

	// A quiet program in front of the shell.
	p.Write([]byte("sleep 30\r"))
	st = r.waitFor("working while sleep runs", info.ID, func(s PaneState) bool { return s.State == "working" })
	if !strings.Contains(st.Reason, "sleep 30") || st.Command != "sleep 30" {
		t.Fatalf("reason %q, command %q: want them to name the running command", st.Reason, st.Command)
	}
	p.Write([]byte("\x03"))
	r.waitFor("idle once the shell is back", info.ID, func(s PaneState) bool { return s.State == "idle" })
}
