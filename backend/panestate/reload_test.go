package panestate

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/backend/terminal"
)

// A rules update applies to panes already open: a prompt wording only the
// new rules know puts the pane in Needs you without a restart.
func TestReloadAppliesNewRulesToOpenPanes(t *testing.T) {
	r := newRig(t, Config{})
	home := t.TempDir()
	dir := t.TempDir()
	info, err := r.mgr.Create(terminal.Options{Dir: dir, Argv: []string{"bash", "--norc", "--noprofile"}, Cols: 100, Rows: 30})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := r.mgr.Get(info.ID)
	// The screen names Claude Code and shows a wording the bundled rules
	// do not treat as a prompt.
	p.Write([]byte("printf 'Welcome to Claude Code\\nApprove the new osf tool? [y/n]\\n'\r"))
	waitScreenText(t, p, "Approve the new osf tool?")
	time.Sleep(300 * time.Millisecond)
	if st := r.stateNow(info.ID); st == "blocked" {
		t.Fatalf("blocked before the update: the test's wording must be new to the bundled rules")
	}

	over := filepath.Join(home, detect.OverrideDir)
	os.MkdirAll(over, 0o700)
	rules := "[agent]\nname = \"claude\"\ndisplay = \"Claude Code\"\nprocess_names = [\"claude\"]\nscreen_markers = ['Welcome to Claude Code']\n\n[[rules]]\nstate = \"blocked\"\nany = ['Approve the new osf tool\\?']\n"
	if err := os.WriteFile(filepath.Join(over, "claude.toml"), []byte(rules), 0o644); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	problems, err := r.w.Reload(home)
	if err != nil || len(problems) > 0 {
		t.Fatalf("reload: %v %v", err, problems)
	}
	r.waitState(info.ID, "blocked", t0)
	st, _ := r.w.State(info.ID)
	if st.Source != "screen" || st.Agent != "claude" {
		t.Errorf("state after reload %+v, want blocked by the new screen rule", st)
	}
}

func waitScreenText(t *testing.T, p *terminal.Pane, text string) {
	t.Helper()
	end := time.Now().Add(30 * time.Second)
	for time.Now().Before(end) {
		for _, l := range p.Screen().Lines {
			if l == text || len(l) >= len(text) && l[:len(text)] == text {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("screen never showed %q", text)
}
