package panestate

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/backend/rulesupdate"
	"github.com/osfoundry/desktop/backend/terminal"
)

const watchRulesBase = "[agent]\nname = \"claude\"\ndisplay = \"Claude Code\"\nprocess_names = [\"claude\"]\nscreen_markers = ['Welcome to Claude Code']\n\n"

// The running app follows the override folder: a file the person saves
// there, then a bundle installed by `osfoundry rules update` (which swaps
// the whole folder), each apply to open panes without a restart.
func TestWatchRulesFollowsTheOverrideFolder(t *testing.T) {
	r := newRig(t, Config{})
	home := t.TempDir() // not even ~/.osfoundry exists yet
	reloads := make(chan []error, 8)
	if err := r.w.WatchRules(home, func(p []error) { reloads <- p }); err != nil {
		t.Fatal(err)
	}
	info, err := r.mgr.Create(terminal.Options{Dir: t.TempDir(), Argv: []string{"bash", "--norc", "--noprofile"}, Cols: 100, Rows: 30})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := r.mgr.Get(info.ID)
	p.Write([]byte("printf 'Welcome to Claude Code\\nApprove the new osf tool? [y/n]\\n'\r"))
	waitScreenText(t, p, "Approve the new osf tool?")

	// 1. The person writes an override.
	over := filepath.Join(home, detect.OverrideDir)
	if err := os.MkdirAll(over, 0o700); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	blocked := watchRulesBase + "[[rules]]\nstate = \"blocked\"\nany = ['Approve the new osf tool\\?']\n"
	if err := os.WriteFile(filepath.Join(over, "claude.toml"), []byte(blocked), 0o644); err != nil {
		t.Fatal(err)
	}
	r.waitState(info.ID, "blocked", t0)

	// 2. An update swaps the folder for one where that wording is working.
	t1 := time.Now()
	working := watchRulesBase + "[[rules]]\nstate = \"working\"\nany = ['Approve the new osf tool\\?']\n"
	if _, err := rulesupdate.Install(home, rulesupdate.Payload{Version: "w1", Files: map[string]string{"claude.toml": working}}, "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	r.waitState(info.ID, "working", t1)

	// 3. And the new folder is watched in turn.
	t2 := time.Now()
	if err := os.WriteFile(filepath.Join(over, "claude.toml"), []byte(blocked), 0o644); err != nil {
		t.Fatal(err)
	}
	r.waitState(info.ID, "blocked", t2)
	if len(reloads) == 0 {
		t.Error("onReload was never called")
	}
}
