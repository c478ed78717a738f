package agentcli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestBuildClaude(t *testing.T) {
	tests := []struct {
		name string
		a    ClaudeArgs
		want []string
	}{
		{"agent with bridge", ClaudeArgs{Prompt: "User: fix it", Folder: "/w", SystemPrompt: "You are the Worker.",
			BridgeURL: "http://127.0.0.1:4000/mcp", BridgeToken: "abc"},
			[]string{"claude", "-p", "User: fix it", "--output-format", "stream-json", "--verbose", "--include-partial-messages",
				"--permission-mode", "bypassPermissions", "--add-dir", "/w",
				"--mcp-config", `{"mcpServers":{"osfoundry":{"headers":{"Authorization":"Bearer abc"},"timeout":120000,"type":"http","url":"http://127.0.0.1:4000/mcp"}}}`,
				"--strict-mcp-config", "--append-system-prompt", "You are the Worker."}},
		{"chat mode", ClaudeArgs{Prompt: "User: title this", Chat: true, Folder: "/w", BridgeURL: "http://x", SystemPrompt: "Titles."},
			[]string{"claude", "-p", "User: title this", "--output-format", "stream-json", "--verbose", "--include-partial-messages",
				"--disallowedTools", "*", "--strict-mcp-config", "--append-system-prompt", "Titles."}},
		{"resume", ClaudeArgs{Prompt: "User: go on", Folder: "/w", Resume: "846aa49b-63d6-4942-b646-86b8408815f4"},
			[]string{"claude", "-p", "User: go on", "--output-format", "stream-json", "--verbose", "--include-partial-messages",
				"--resume", "846aa49b-63d6-4942-b646-86b8408815f4",
				"--permission-mode", "bypassPermissions", "--add-dir", "/w", "--strict-mcp-config"}},
		{"fork (Continue here)", ClaudeArgs{Prompt: "User: go on", Chat: true, Resume: "846aa49b-63d6-4942-b646-86b8408815f4", Fork: true},
			[]string{"claude", "-p", "User: go on", "--output-format", "stream-json", "--verbose", "--include-partial-messages",
				"--resume", "846aa49b-63d6-4942-b646-86b8408815f4", "--fork-session",
				"--disallowedTools", "*", "--strict-mcp-config"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := BuildClaude("claude", tc.a)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("argv\n got %q\nwant %q", got, tc.want)
			}
			if slices.Contains(got, "--allowedTools") {
				t.Error("--allowedTools passed")
			}
		})
	}
}

func TestBuildCodex(t *testing.T) {
	tests := []struct {
		name string
		a    CodexArgs
		want []string
	}{
		{"no worktree", CodexArgs{SystemPrompt: "You are the Worker.", Turns: []Turn{{Role: "user", Text: "fix it"}},
			Folder: "/w", Sandbox: "workspace-write", IgnoreRules: true},
			[]string{"codex", "exec", "You are the Worker.\n\nUser: fix it", "--json", "--skip-git-repo-check", "--ignore-user-config",
				"--ignore-rules", "-C", "/w", "-s", "workspace-write", "-c", `approval_policy="never"`}},
		{"worktree with bridge", CodexArgs{SystemPrompt: "S", Turns: []Turn{{Role: "user", Text: "a"}, {Role: "assistant", Text: "b"}, {Role: "user", Text: "c"}},
			Folder: "/wt", BridgeURL: "http://127.0.0.1:4000/mcp", BridgeToken: "abc", IgnoreRules: true},
			[]string{"codex", "exec", "S\n\nUser: a\n\nAssistant: b\n\nUser: c", "--json", "--skip-git-repo-check", "--ignore-user-config",
				"--ignore-rules", "-C", "/wt", "--dangerously-bypass-approvals-and-sandbox",
				"-c", `mcp_servers.osfoundry.url="http://127.0.0.1:4000/mcp"`,
				"-c", `mcp_servers.osfoundry.http_headers={Authorization="Bearer abc"}`,
				"-c", `approval_policy="never"`}},
		{"old codex without --ignore-rules", CodexArgs{Turns: []Turn{{Role: "user", Text: "x"}}, Folder: "/w"},
			[]string{"codex", "exec", "User: x", "--json", "--skip-git-repo-check", "--ignore-user-config",
				"-C", "/w", "-s", "workspace-write", "-c", `approval_policy="never"`}},
		{"verify (reference §3, exactly)", CodexArgs{Prompt: VerifyPrompt, Sandbox: "read-only", IgnoreRules: true},
			[]string{"codex", "exec", "Reply with the single word: ok", "--json", "--skip-git-repo-check", "--ignore-user-config",
				"--ignore-rules", "-s", "read-only", "-c", `approval_policy="never"`}},
		{"resume", CodexArgs{Prompt: "User: go on", Resume: "01a229ed-de09-72c1-9a8e-c84d9fcb70e9", Folder: "/w", IgnoreRules: true},
			[]string{"codex", "exec", "resume", "01a229ed-de09-72c1-9a8e-c84d9fcb70e9", "User: go on", "--json", "--skip-git-repo-check",
				"--ignore-user-config", "--ignore-rules", "-c", `sandbox_mode="workspace-write"`, "-c", `approval_policy="never"`}},
		{"fork (Continue here)", CodexArgs{Prompt: "User: go on", Resume: "01a229ed-de09-72c1-9a8e-c84d9fcb70e9", Fork: true, Folder: "/w"},
			[]string{"codex", "exec", "fork", "01a229ed-de09-72c1-9a8e-c84d9fcb70e9", "User: go on", "--json", "--skip-git-repo-check",
				"--ignore-user-config", "-c", `sandbox_mode="workspace-write"`, "-c", `approval_policy="never"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := BuildCodex("codex", tc.a)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("argv\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestBuildRefusals(t *testing.T) {
	if _, err := BuildClaude("claude", ClaudeArgs{Prompt: "--version"}); err == nil {
		t.Error("a prompt starting with a dash was accepted")
	}
	if _, err := BuildClaude("claude", ClaudeArgs{Prompt: "User: a\x00b"}); err == nil || !strings.Contains(err.Error(), "NUL") {
		t.Errorf("NUL: %v", err)
	}
	if _, err := BuildCodex("codex", CodexArgs{Prompt: "User: " + strings.Repeat("x", maxPromptBytes)}); !errors.Is(err, ErrPromptTooLong) {
		t.Errorf("long prompt: %v", err)
	}
	// The chat offers a Compact button for this error: the message points
	// at it rather than at something the person cannot do.
	if msg := ErrPromptTooLong.Error(); !strings.Contains(msg, "press Compact") || MaxPromptBytes != maxPromptBytes {
		t.Errorf("too-long message %q (limit %d)", msg, MaxPromptBytes)
	}
	for _, id := range []string{"--last", "a;b", "$(id)", "x y", ""} {
		if _, err := BuildCodex("codex", CodexArgs{Prompt: "User: x", Resume: id}); err == nil && id != "" {
			t.Errorf("resume id %q accepted", id)
		}
	}
	if _, err := BuildCodex("codex", CodexArgs{Prompt: "User: x", Sandbox: "danger-full-access"}); err == nil {
		t.Error("danger-full-access accepted without a worktree")
	}
	// a token or URL with quotes cannot break out of the TOML string
	argv, _ := BuildCodex("codex", CodexArgs{Prompt: "User: x", BridgeURL: `http://a/"b`, BridgeToken: `t"}x=1`})
	if !slices.Contains(argv, `mcp_servers.osfoundry.http_headers={Authorization="Bearer t\"}x=1"}`) {
		t.Errorf("headers not escaped: %q", argv)
	}
}

func TestModels(t *testing.T) {
	if _, err := ParseModel("cli:codex"); err == nil || err.Error() != "codex has no tool-less chat mode — use 'cli:codex:agent' for an autonomous run instead." {
		t.Errorf("cli:codex: %v", err)
	}
	m, err := ParseModel(ModelClaudeChat)
	if err != nil || !m.Chat || m.Agent != Claude {
		t.Fatalf("cli:claude: %+v %v", m, err)
	}
	err = m.CheckRole("Worker", true)
	if !errors.Is(err, ErrChatNeedsTools) || !strings.Contains(err.Error(), "use 'cli:claude:agent'") || !strings.Contains(err.Error(), "Worker") {
		t.Errorf("chat in a tool role: %v", err)
	}
	if err := m.CheckRole("Titling", false); err != nil {
		t.Errorf("chat for Titling: %v", err)
	}
	if _, err := ParseModel("cli:gemini"); err == nil || !strings.Contains(err.Error(), "cli:claude:agent") {
		t.Errorf("unknown: %v", err)
	}
	// the refusal comes before anything runs, through Run too
	r := NewRunner(RunnerOptions{})
	if _, err := r.Run(context.Background(), Job{Model: "cli:codex", Turns: []Turn{{Text: "x"}}}); !errors.Is(err, ErrCodexChat) {
		t.Errorf("run cli:codex: %v", err)
	}
	if _, err := r.Run(context.Background(), Job{Model: ModelClaudeChat, Role: "Worker", NeedsTools: true, Turns: []Turn{{Text: "x"}}}); !errors.Is(err, ErrChatNeedsTools) {
		t.Errorf("run cli:claude as Worker: %v", err)
	}
}

// A child that prints its environment proves the billing keys were removed
// and everything else was kept.
func TestScrubbedChildEnv(t *testing.T) {
	keys := []string{"ANTHROPIC_API_KEY=sk-ant-real", "ANTHROPIC_AUTH_TOKEN=tok", "CLAUDE_CODE_USE_BEDROCK=1",
		"CODEX_API_KEY=ck", "OPENAI_API_KEY=sk-real", "OPENAI_BASE_URL=https://proxy.example", "KEEP_ME=yes",
		"CLAUDE_CODE_OAUTH_TOKEN=sub"}
	tests := []struct {
		model   string
		removed []string
		kept    []string
	}{
		{ModelClaudeAgent, []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_USE_BEDROCK"},
			[]string{"KEEP_ME=yes", "CLAUDE_CODE_OAUTH_TOKEN=sub"}},
		{ModelCodexAgent, []string{"CODEX_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL"},
			[]string{"KEEP_ME=yes", "ANTHROPIC_API_KEY=sk-ant-real"}},
	}
	for _, tc := range tests {
		t.Run(tc.model, func(t *testing.T) {
			r, work := fakeCLI(t, "printenv", keys...)
			var evs []Event
			if _, err := r.Run(context.Background(), job(tc.model, work, "env", &evs)); err != nil {
				t.Fatal(err)
			}
			env := map[string]bool{}
			for _, e := range evs {
				if kv, ok := strings.CutPrefix(e.Text, "ENV "); ok && e.Kind == KindRaw {
					env[kv] = true
					name, _, _ := strings.Cut(kv, "=")
					if slices.Contains(tc.removed, name) {
						t.Errorf("%s reached the child", name)
					}
				}
			}
			if len(env) == 0 {
				t.Fatal("the child printed no environment")
			}
			for _, k := range tc.kept {
				if !env[k] {
					t.Errorf("%s was removed", k)
				}
			}
		})
	}
	in := Discover(Claude, Env{Environ: keys})
	if !slices.Equal(in.KeysInEnv, []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_USE_BEDROCK"}) {
		t.Errorf("API key in env badge: %v", in.KeysInEnv)
	}
	if in := Discover(Codex, Env{Environ: []string{"OPENAI_API_KEY="}}); len(in.KeysInEnv) != 0 {
		t.Errorf("an empty variable lit the badge: %v", in.KeysInEnv)
	}
}

// --ignore-rules is passed only when `codex exec --help` lists it, and the
// help is asked once per binary until the binary changes.
func TestIgnoreRulesProbe(t *testing.T) {
	r, work := fakeCLI(t, "codex-old")
	var evs []Event
	if _, err := r.Run(context.Background(), job(ModelCodexAgent, work, "x", &evs)); err != nil {
		t.Fatal(err)
	}
	if argv := dumpedArgv(t, evs); slices.Contains(argv, "--ignore-rules") {
		t.Errorf("--ignore-rules passed to a codex that does not list it: %q", argv)
	}

	r, work = fakeCLI(t, "argv")
	for range 3 {
		evs = nil
		if _, err := r.Run(context.Background(), job(ModelCodexAgent, work, "x", &evs)); err != nil {
			t.Fatal(err)
		}
		if argv := dumpedArgv(t, evs); !slices.Contains(argv, "--ignore-rules") {
			t.Errorf("--ignore-rules missing: %q", argv)
		}
	}
	calls := func() int {
		b, _ := os.ReadFile(filepath.Join(filepath.Dir(work), "help-calls"))
		return strings.Count(string(b), "help")
	}
	if calls() != 1 {
		t.Errorf("codex exec --help asked %d times for one binary, want 1", calls())
	}
	// an upgrade in place (new size and mtime) is asked again
	bin := filepath.Join(filepath.Dir(work), "bin", "codex")
	b, _ := os.ReadFile(bin)
	os.WriteFile(bin, append(b, "# upgraded\n"...), 0o755) //nolint:errcheck // checked below
	if _, err := r.Run(context.Background(), job(ModelCodexAgent, work, "x", &evs)); err != nil {
		t.Fatal(err)
	}
	if calls() != 2 {
		t.Errorf("help asked %d times after an upgrade, want 2", calls())
	}
}

func TestContainsFlag(t *testing.T) {
	for help, want := range map[string]bool{
		"  --ignore-rules\n": true, "--ignore-rules-file": false, "x --ignore-rules": true, "--no-ignore-rules": false, "": false,
	} {
		if containsFlag(help, "--ignore-rules") != want {
			t.Errorf("containsFlag(%q) != %v", help, want)
		}
	}
}

func TestDiscover(t *testing.T) {
	home := t.TempDir()
	pathDir := t.TempDir()
	root := t.TempDir()
	exe := func(p string) string {
		os.MkdirAll(filepath.Dir(p), 0o755)                   //nolint:errcheck // checked by Discover
		os.WriteFile(p, []byte("#!/bin/sh\nexit 0\n"), 0o755) //nolint:errcheck // checked by Discover
		return p
	}
	env := Env{Home: home, Path: "relative/bin:" + pathDir, Root: root}
	if in := Discover(Claude, env); in.Installed {
		t.Fatalf("found %s in an empty machine", in.Path)
	}
	// VS Code extension: the newest version wins, whatever the glob order.
	exe(filepath.Join(home, ".vscode/extensions/anthropic.claude-code-2.1.9-linux-x64/resources/native-binary/claude"))
	newest := exe(filepath.Join(home, ".vscode/extensions/anthropic.claude-code-2.1.10-linux-x64/resources/native-binary/claude"))
	if in := Discover(Claude, env); in.Path != newest || in.Source != "VS Code extension" {
		t.Errorf("vscode: %+v", in)
	}
	local := exe(filepath.Join(home, ".claude/local/claude"))
	if in := Discover(Claude, env); in.Path != local {
		t.Errorf("~/.claude/local: %+v", in)
	}
	inPath := exe(filepath.Join(pathDir, "claude"))
	if in := Discover(Claude, env); in.Path != inPath || in.Source != "PATH" || !slices.Equal(in.Models, []string{"cli:claude", "cli:claude:agent"}) {
		t.Errorf("PATH: %+v", in)
	}
	// a non-executable file and a folder are skipped
	os.WriteFile(filepath.Join(pathDir, "codex"), []byte("x"), 0o644) //nolint:errcheck // checked below
	app := exe(filepath.Join(root, "Applications/Codex.app/Contents/Resources/codex"))
	in := Discover(Codex, env)
	if in.Path != app || !in.NoLiveStream || in.Note != CodexNote || !slices.Equal(in.Models, []string{"cli:codex:agent"}) {
		t.Errorf("Codex.app: %+v", in)
	}
	bin := exe(filepath.Join(home, ".codex/bin/codex"))
	if in := Discover(Codex, env); in.Path != bin {
		t.Errorf("~/.codex/bin: %+v", in)
	}
	// a relative PATH entry is never searched, even when it holds the binary
	cwd := t.TempDir()
	t.Chdir(cwd)
	exe(filepath.Join(cwd, "relative/bin/claude"))
	if in := Discover(Claude, Env{Path: "relative/bin"}); in.Installed {
		t.Errorf("found %s through a relative PATH entry", in.Path)
	}
}
