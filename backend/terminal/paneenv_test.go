//go:build !windows

package terminal_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/shellenv"
	"github.com/osfoundry/desktop/backend/terminal"
)

// fakeAgent writes an executable named name into dir that prints the
// variables it was given, then waits (a TUI that stays open).
func fakeAgent(t *testing.T, dir, name string, vars ...string) {
	t.Helper()
	script := "#!/bin/sh\n"
	for _, v := range vars {
		script += "echo \"" + v + "=[${" + v + "-unset}]\"\n"
	}
	script += "sleep 30\n"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

func screenHas(p *terminal.Pane, want string) bool {
	for _, l := range p.Screen().Lines {
		if strings.TrimSpace(l) == want {
			return true
		}
	}
	return false
}

func waitScreen(t *testing.T, p *terminal.Pane, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !screenHas(p, want) {
		if time.Now().After(deadline) {
			t.Fatalf("the pane never showed %q; screen:\n%s", want, strings.Join(p.Screen().Lines, "\n"))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A variable only ~/.bashrc exports (the env_key of the person's Codex
// provider) reaches a pane the app starts as `codex`, as it reaches their
// terminal: panes start with the login shell's whole environment.
func TestCodexPaneGetsWhatBashrcExports(t *testing.T) {
	sh, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	home := t.TempDir()
	fakeAgent(t, filepath.Join(home, "tools"), "codex", "OSF_CORP_GATEWAY_KEY")
	rc := "export PATH=\"$HOME/tools:$PATH\" OSF_CORP_GATEWAY_KEY=sk-corp-from-bashrc\n"
	if err := os.WriteFile(filepath.Join(home, ".bashrc"), []byte(rc), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("OSF_CORP_GATEWAY_KEY", "")
	os.Unsetenv("OSF_CORP_GATEWAY_KEY")
	res, err := shellenv.Resolve(context.Background(), shellenv.Options{Shell: sh, Home: home})
	if err != nil {
		t.Fatal(err)
	}
	m := terminal.NewManager(nil)
	m.SetEnvFilter(agentcli.PaneEnv)
	info, err := m.Create(terminal.Options{Dir: home, Argv: []string{"codex"}, Env: res.TerminalEnviron()})
	if err != nil {
		t.Fatal(err)
	}
	defer m.CloseAll()
	p, err := m.Get(info.ID)
	if err != nil {
		t.Fatal(err)
	}
	waitScreen(t, p, "OSF_CORP_GATEWAY_KEY=[sk-corp-from-bashrc]")
	if screenHas(p, agentcli.PaneNotice) {
		t.Error("a codex pane got the Claude Code notice")
	}
}

// A pane the app starts as Claude Code (New pane, restore, Open in
// Terminal all go through Create) loses ANTHROPIC_API_KEY, and its first
// line says so before Claude Code's own output.
func TestClaudePaneLosesAPIKeyWithNotice(t *testing.T) {
	bin := t.TempDir()
	fakeAgent(t, bin, "claude", "ANTHROPIC_API_KEY", "OSF_OTHER")
	env := []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + t.TempDir(),
		"ANTHROPIC_API_KEY=sk-ant-api-billed", "OSF_OTHER=kept"}
	m := terminal.NewManager(nil)
	m.SetEnvFilter(agentcli.PaneEnv)
	defer m.CloseAll()
	for _, argv := range [][]string{{"claude"}, {filepath.Join(bin, "claude"), "--resume", "abc"}} {
		info, err := m.Create(terminal.Options{Dir: bin, Argv: argv, Env: env, Cols: 120, Rows: 10})
		if err != nil {
			t.Fatal(err)
		}
		p, err := m.Get(info.ID)
		if err != nil {
			t.Fatal(err)
		}
		waitScreen(t, p, "OSF_OTHER=[kept]")
		lines := p.Screen().Lines
		if strings.TrimSpace(lines[0]) != agentcli.PaneNotice {
			t.Errorf("%q pane's first line = %q, want the notice", argv, lines[0])
		}
		if !screenHas(p, "ANTHROPIC_API_KEY=[unset]") {
			t.Errorf("%q pane kept the API key:\n%s", argv, strings.Join(lines, "\n"))
		}
	}
}
