package detect

import (
	"strings"
	"testing"
)

func TestEvaluateScreens(t *testing.T) {
	reg := bundled(t)
	cases := []struct {
		name, agent string
		lines       []string
		state       State
		rule        int
	}{
		{"claude edit prompt", "claude", []string{
			"Edit file  src/payments/charge.ts",
			" Do you want to make this edit to charge.ts?",
			" ❯ 1. Yes",
			"   2. Yes, allow all edits during this session",
			"   3. No, and tell Claude what to do differently",
		}, Blocked, 1},
		{"prompt with a leftover working footer", "claude", []string{
			"✻ Frolicking… (12s · esc to interrupt)",
			" Do you want to proceed?",
			" ❯ 1. Yes",
		}, Blocked, 1},
		{"prompt wrapped over two rows", "claude", []string{"Do you want to", "proceed?"}, Idle, 0},
		{"working spinner", "claude", []string{"✽ Thinking… (3s · esc to interrupt)", "", "> ", "  ? for shortcuts"}, Working, 2},
		{"idle footer", "claude", []string{"● Fixed.", "> ", "  ? for shortcuts"}, Idle, 3},
		{"plan mode footer", "claude", []string{"> ", "  ⏸ plan mode on (shift+tab to cycle)"}, Idle, 3},
		{"claude asking in prose is not a prompt", "claude", []string{"● Would you like me to add a regression test?", "> ", "  ? for shortcuts"}, Idle, 3},
		{"blank screen", "claude", []string{"", "", ""}, Idle, 0},
		{"no lines", "claude", nil, Idle, 0},
		{"codex exec approval", "codex", []string{
			"  Would you like to run the following command?",
			"  $ npm test",
			"› 1. Yes, proceed (y)",
			"  Press Enter to confirm or Esc to cancel",
		}, Blocked, 1},
		{"codex working", "codex", []string{"• Working (4s • esc to interrupt)", "› ", "  ? for shortcuts"}, Working, 2},
		{"gemini shell confirmation", "gemini", []string{"│ Allow execution of [Shell]?", "│ ● 1. Allow once"}, Blocked, 1},
		{"qwen shell confirmation", "qwen", []string{"Allow execution of: 'npm test'?", "● 1. Yes, allow once"}, Blocked, 1},
		{"qwen working", "qwen", []string{"⠋ Thinking (3s · 1.2k tokens · esc to cancel)"}, Working, 2},
		{"gemini working", "gemini", []string{"⠏ Reading files (esc to cancel, 2s)"}, Working, 2},
		{"wide chars and emoji", "claude", []string{
			"● 完了しました。テストは全部通りました 🎉🎉🎉",
			"👩‍👩‍👧‍👦 e\u0301\u0301\u0301 Z̷̢̛a̶l̸g̵o̶ ㈱ 한국어 텍스트",
			"  ? for shortcuts",
		}, Idle, 3},
		{"emoji around a prompt", "claude", []string{"🎉 Do you want to proceed? 🎉", "❯ 1. Yes 👍"}, Blocked, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := reg.Get(c.agent).Evaluate(c.lines)
			if d.State != c.state || d.Rule != c.rule {
				t.Fatalf("got %s by %q, want %s by rule %d", d.State, d, c.state, c.rule)
			}
			if c.rule == 0 && d.Source != FromDefault {
				t.Fatalf("no-match source = %s", d.Source)
			}
		})
	}
}

// A screen full of text matches no rule and must say idle (never blocked),
// whatever is on it; a pathological row stays cheap (RE2 is linear).
func TestEvaluateHugeAndHostileScreens(t *testing.T) {
	rs := bundled(t).Get("claude")
	row := strings.Repeat("❯ 1", 166) + "\x00\x00"
	lines := make([]string, 200)
	for i := range lines {
		lines[i] = row
	}
	if d := rs.Evaluate(lines); d.State != Idle {
		t.Fatalf("500x200 junk screen = %s (%s)", d.State, d)
	}
	if d := rs.Evaluate([]string{"❯"}); d.State != Idle {
		t.Fatalf("1x1 screen = %s", d.State)
	}
}

func TestScreenText(t *testing.T) {
	got := ScreenText([]string{"a  ", "b\x00c\t", ""})
	if got != "a\nbc\n" {
		t.Fatalf("ScreenText = %q", got)
	}
}

func TestTitleState(t *testing.T) {
	rs := bundled(t).Get("claude")
	cases := []struct {
		title string
		state State
		ok    bool
	}{
		{"⠂ Fix checkout", Working, true},
		{"◐ Fix checkout", Working, true},
		{"✳ Fix checkout", Idle, true},
		{"2.1.328", "", false},
		{"", "", false},
		{"\u2800 blank braille is not a spinner frame", "", false},
	}
	for _, c := range cases {
		st, ok := rs.TitleState(c.title)
		if st != c.state || ok != c.ok {
			t.Errorf("TitleState(%q) = %s,%v want %s,%v", c.title, st, ok, c.state, c.ok)
		}
	}
}

func TestTitlesOfOtherAgents(t *testing.T) {
	reg := bundled(t)
	cases := []struct {
		agent, title string
		state        State
		ok           bool
	}{
		{"codex", "⠋ Fake session | work", Working, true},
		{"codex", "[ ! ] Action Required | work", Blocked, true},
		{"codex", "work", "", false},
		{"gemini", "✋  Action Required (work)", Blocked, true},
		{"gemini", "✦  Working… (work)", Working, true},
		{"gemini", "◇  Ready (work)", Idle, true},
	}
	for _, c := range cases {
		st, ok := reg.Get(c.agent).TitleState(c.title)
		if st != c.state || ok != c.ok {
			t.Errorf("%s TitleState(%q) = %s,%v want %s,%v", c.agent, c.title, st, ok, c.state, c.ok)
		}
	}
}

func TestIdentify(t *testing.T) {
	reg := bundled(t)
	cases := []struct {
		name string
		p    Process
		want string
	}{
		{"claude binary", Process{Name: "claude"}, "claude"},
		{"claude via node", Process{Name: "node", Argv: []string{"node", "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js"}}, "claude"},
		{"codex native, comm truncated", Process{Name: "codex-x86_64-un"}, "codex"},
		{"codex via node", Process{Name: "node", Argv: []string{"node", "/usr/local/bin/codex"}}, "codex"},
		{"gemini via node", Process{Name: "node", Argv: []string{"node", "/usr/local/lib/node_modules/@google/gemini-cli/dist/index.js"}}, "gemini"},
		{"shell", Process{Name: "bash", Argv: []string{"-bash"}}, ""},
		{"pager on a file named claude", Process{Name: "less", Argv: []string{"less", "notes/claude"}}, ""},
		{"plain node", Process{Name: "node", Argv: []string{"node", "server.js"}}, ""},
		{"claude by script name", Process{Name: "claude-code"}, "claude"},
		{"copilot via npm loader", Process{Name: "node", Argv: []string{"node", "/x/node_modules/@github/copilot/npm-loader.js"}}, "copilot"},
		{"opencode native", Process{Name: "opencode"}, "opencode"},
		{"qwen by script name", Process{Name: "qwen-code"}, "qwen"},
	}
	for _, c := range cases {
		if got := reg.IdentifyProcess(c.p); got != c.want {
			t.Errorf("%s: IdentifyProcess = %q, want %q", c.name, got, c.want)
		}
	}
	if got := reg.IdentifyScreen([]string{"╭───╮", "│ ✻ Welcome to Claude Code! │"}); got != "claude" {
		t.Errorf("IdentifyScreen = %q", got)
	}
	if got := reg.IdentifyScreen([]string{">_ OpenAI Codex (v0.169.0)"}); got != "codex" {
		t.Errorf("IdentifyScreen codex = %q", got)
	}
	for _, c := range []struct {
		p    Process
		want bool
	}{
		{Process{Name: "-zsh"}, true},
		{Process{Name: "bash", Argv: []string{"bash", "-l"}}, true},
		{Process{Name: "bash", Argv: []string{"bash", "run-claude.sh"}}, false},
		{Process{Name: "vim"}, false},
	} {
		if got := isInteractiveShell(c.p); got != c.want {
			t.Errorf("isInteractiveShell(%v) = %v", c.p, got)
		}
	}
}
