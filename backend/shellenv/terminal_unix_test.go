//go:build !windows

package shellenv

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A variable only ~/.bashrc exports (a Codex provider's env_key) reaches
// the panes' environment as it reaches a terminal's, and still never the
// workers'; what the reading shell set for itself does not.
func TestTerminalEnvironHasWhatBashrcExports(t *testing.T) {
	sh := bash(t)
	isolate(t)
	t.Setenv("OSF_CORP_PROXY", "from-the-app")
	rc := addBin + "export OSF_CORP_GATEWAY_KEY=sk-corp-1 OSF_CORP_PROXY=from-bashrc ANTHROPIC_API_KEY=sk-ant-x\n"
	h := home(t, claudeFiles(rc))
	res, err := Resolve(context.Background(), Options{Shell: sh, Home: h})
	if err != nil {
		t.Fatal(err)
	}
	term := res.TerminalEnviron()
	for name, want := range map[string]string{
		"OSF_CORP_GATEWAY_KEY": "sk-corp-1",
		"OSF_CORP_PROXY":       "from-bashrc", // the rc's word wins, as in a terminal
		"ANTHROPIC_API_KEY":    "sk-ant-x",    // the pane's agent decides (agentcli.PaneEnv)
		"PATH":                 res.Path,
	} {
		if got := GetIn(term, name); got != want {
			t.Errorf("pane %s = %q, want %q", name, got, want)
		}
	}
	for _, name := range []string{"PWD", "SHLVL", "_"} {
		if got := GetIn(term, name); got != os.Getenv(name) {
			t.Errorf("pane %s = %q: the reading shell's own value leaked", name, got)
		}
	}
	for _, kv := range res.Environ() {
		if strings.HasPrefix(kv, "OSF_CORP_GATEWAY_KEY=") || strings.HasPrefix(kv, "ANTHROPIC_API_KEY=") {
			t.Errorf("%s reached the workers' environment", kv)
		}
	}
	untouched(t)
}

// The window may exit while its login shell is still being read (a slow
// `pyenv init`): Stop ends the shell and everything its rc started.
func TestStopEndsTheReadAndWhatItStarted(t *testing.T) {
	sh := bash(t)
	isolate(t)
	h := home(t, claudeFiles(addBin+"sleep 300.4103 &\nsleep 300.4104\n"))
	var rd reader
	rd.hold(Options{Shell: sh, Home: h, Timeout: time.Minute}, "no terminal")
	rd.begin()
	waitFor(t, "300.4104")
	rd.stop()
	waitGone(t, "300.4103")
	waitGone(t, "300.4104")
	if r := rd.wait(); r.OK || r.Pending {
		t.Errorf("after Stop the Result = %+v, want an ended read that merged nothing", r)
	}
	rd.stop() // a second Stop (the signal path and the window's exit) is harmless
}

// waitFor waits until a process whose command line holds tag runs: the
// read is in the middle of the rc.
func waitFor(t *testing.T, tag string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for len(procsWith(tag)) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the rc's %s never started", tag)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// git is found on the environment a command runs with, not on the
// process's PATH: a window started from a menu has none.
func TestCommandInFindsProgramsOnTheGivenPath(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	t.Setenv("PATH", "")
	env := []string{"PATH=" + filepath.Dir(git), "HOME=" + t.TempDir()}
	cmd, err := CommandIn(context.Background(), env, "git", "--version")
	if err != nil {
		t.Fatalf("CommandIn(git) with git on env's PATH: %v", err)
	}
	if out, err := cmd.Output(); err != nil || !strings.HasPrefix(string(out), "git version") {
		t.Fatalf("git --version = %q, %v", out, err)
	}
	_, err = CommandIn(context.Background(), []string{"PATH=" + t.TempDir()}, "git")
	if err == nil || !strings.Contains(err.Error(), "finding git") || !strings.Contains(err.Error(), "~/.bashrc") {
		t.Errorf("git missing from PATH: error %v, want one saying what to do", err)
	}
}
