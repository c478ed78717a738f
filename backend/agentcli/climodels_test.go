package agentcli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/testkit/agentbin"
)

func TestParseModelWithCLIModel(t *testing.T) {
	for _, c := range []struct {
		id, mode, cli string
		agent         Agent
		chat          bool
	}{
		{"cli:claude:agent", ModelClaudeAgent, "", Claude, false},
		{"cli:claude:agent@opus", ModelClaudeAgent, "opus", Claude, false},
		{" cli:claude@haiku ", ModelClaudeChat, "haiku", Claude, true},
		{"cli:claude:agent@sonnet[1m]", ModelClaudeAgent, "sonnet[1m]", Claude, false},
		{"cli:claude:agent@claude-opus-4@20250514", ModelClaudeAgent, "claude-opus-4@20250514", Claude, false}, // a Vertex id
		{"cli:codex:agent@gpt-5.6-luna", ModelCodexAgent, "gpt-5.6-luna", Codex, false},
		{"cli:codex:agent@openai/gpt-oss-120b", ModelCodexAgent, "openai/gpt-oss-120b", Codex, false},
	} {
		t.Run(c.id, func(t *testing.T) {
			m, err := ParseModel(c.id)
			if err != nil {
				t.Fatal(err)
			}
			if m.Agent != c.agent || m.Chat != c.chat || m.CLIModel != c.cli || m.ID != WithCLIModel(c.mode, c.cli) {
				t.Fatalf("ParseModel(%q) = %+v", c.id, m)
			}
		})
	}
	for _, bad := range []string{"cli:claude:agent@", "cli:claude:agent@--dangerously-skip-permissions", "cli:codex:agent@gpt 5", "cli:codex:agent@a;rm", "cli:codex:agent@$(x)", "cli:claude:agent@" + strings.Repeat("a", 121)} {
		if _, err := ParseModel(bad); err == nil || !strings.Contains(err.Error(), "pick one from the list, or Default") {
			t.Errorf("ParseModel(%q) = %v, want a refusal saying what to do", bad, err)
		}
	}
	if _, err := ParseModel("cli:codex@gpt-5"); !errors.Is(err, ErrCodexChat) {
		t.Errorf("cli:codex@gpt-5: %v", err)
	}
	if got := WithCLIModel("cli:claude:agent@opus", ""); got != "cli:claude:agent" {
		t.Errorf("WithCLIModel back to the default = %q", got)
	}
	if got := WithCLIModel("cli:claude:agent@opus", "haiku"); got != "cli:claude:agent@haiku" {
		t.Errorf("WithCLIModel swapping = %q", got)
	}
}

// The picked model is one argv element after its flag, whatever it holds;
// the default adds no flag.
func TestPickedModelArgv(t *testing.T) {
	argv, err := BuildClaude("claude", ClaudeArgs{Prompt: "User: hi", Model: "claude-opus-4@20250514"})
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.Index(argv, "--model"); i < 0 || argv[i+1] != "claude-opus-4@20250514" {
		t.Fatalf("claude argv %q", argv)
	}
	argv, err = BuildClaude("claude", ClaudeArgs{Prompt: "User: hi"})
	if err != nil || slices.Contains(argv, "--model") {
		t.Fatalf("claude default argv %q %v", argv, err)
	}
	argv, err = BuildCodex("codex", CodexArgs{Prompt: "User: hi", Folder: "/w", Model: "gpt-5.6-luna"})
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.Index(argv, "-m"); i < 0 || argv[i+1] != "gpt-5.6-luna" {
		t.Fatalf("codex argv %q", argv)
	}
	// `codex exec resume` takes -m too: a resumed chat keeps its model.
	argv, err = BuildCodex("codex", CodexArgs{Prompt: "User: hi", Resume: "0199a213-81c0-7800-8aa1-bbab2a035a53", Model: "gpt-6-sol"})
	if err != nil || !slices.Contains(argv, "gpt-6-sol") || argv[2] != "resume" {
		t.Fatalf("codex resume argv %q %v", argv, err)
	}
	if _, err := BuildClaude("claude", ClaudeArgs{Prompt: "User: hi", Model: "-p"}); err == nil {
		t.Fatal("a model name that is a flag was accepted")
	}
	if _, err := BuildCodex("codex", CodexArgs{Prompt: "User: hi", Model: "--yolo"}); err == nil {
		t.Fatal("a model name that is a flag was accepted by the codex builder")
	}
}

func TestRefusedModelMessage(t *testing.T) {
	m, _ := ParseModel("cli:claude:agent@no-such-model")
	cli := errors.New("Claude Code exited with status 1: There's an issue with the selected model (no-such-model). It may not exist or you may not have access to it. Run --model to pick a different model.")
	err := refusedModel(m, cli)
	if !errors.Is(err, ErrModelRefused) || !errors.Is(err, cli) || !strings.HasPrefix(err.Error(), `Claude Code refused the model "no-such-model"`) {
		t.Fatalf("refused: %v", err)
	}
	other := errors.New("Claude Code exited with status 1: network unreachable")
	if got := refusedModel(m, other); got != other {
		t.Errorf("an unrelated failure was reworded: %v", got)
	}
	def, _ := ParseModel(ModelClaudeAgent)
	if got := refusedModel(def, cli); got != cli {
		t.Errorf("a run on the default model was reworded: %v", got)
	}
}

func TestClaudeHelpAliases(t *testing.T) {
	help := `  --fallback-model <model>   Models to fall back to ('x')
  --model <model>                       Model for the current session. Use an
                                        alias for the latest model (e.g.
                                        'fable', 'opus', or 'sonnet') or a
                                        model's full name.
  -n, --name <name>   Set a display name ('y')`
	if got := claudeHelpAliases(help); !slices.Equal(got, []string{"fable", "opus", "sonnet"}) {
		t.Fatalf("aliases %q", got)
	}
	if got := claudeHelpAliases("no such flag"); got != nil {
		t.Fatalf("aliases of a help without --model: %q", got)
	}
}

// Codex's list: its models cache when it has one (what its server last
// offered this person), in Codex's order, hidden models left out.
func TestCodexModelsFromItsCache(t *testing.T) {
	bin, ok := agentbin.Find("codex")
	if !ok {
		t.Fatal("codex is not installed in build/agents: run make agents")
	}
	home := t.TempDir()
	cache := `{"fetched_at":"2026-12-01T10:00:00Z","client_version":"0.169.0","models":[
	 {"slug":"gpt-b","display_name":"GPT B","description":"second","visibility":"list","priority":2},
	 {"slug":"gpt-hidden","display_name":"Hidden","visibility":"hide","priority":0},
	 {"slug":"gpt-a","display_name":"GPT A","description":"first","visibility":"list","priority":1}]}`
	if err := os.MkdirAll(filepath.Join(home, ".codex"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".codex", "models_cache.json"), []byte(cache), 0o644); err != nil {
		t.Fatal(err)
	}
	r := NewRunner(RunnerOptions{Env: Env{Home: home, Environ: []string{"HOME=" + home}}, Bins: map[Agent]string{Codex: bin}})
	got := r.CLIModels(context.Background(), Codex, nil)
	var ids []string
	for _, m := range got.Models {
		ids = append(ids, m.ID)
	}
	if got.Problem != "" || !slices.Equal(ids, []string{"", "gpt-a", "gpt-b"}) || got.Models[0].Label != DefaultModelLabel || got.Models[1].Label != "GPT A" || !strings.Contains(got.Source, "models cache") {
		t.Fatalf("list %+v", got)
	}
}

// Without a cache, the real Codex's own catalogue (no network): every
// entry is one Codex lists, and the default comes first.
func TestCodexModelsFromTheBinary(t *testing.T) {
	bin, ok := agentbin.Find("codex")
	if !ok {
		t.Fatal("codex is not installed in build/agents: run make agents")
	}
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".codex"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := NewRunner(RunnerOptions{Env: Env{Home: home, Environ: []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}}, Bins: map[Agent]string{Codex: bin}})
	got := r.CLIModels(context.Background(), Codex, nil)
	if got.Problem != "" || len(got.Models) < 2 || got.Models[0].ID != "" || !strings.Contains(got.Source, "codex debug models") {
		t.Fatalf("list %+v", got)
	}
	out, err := runStdout(context.Background(), []string{bin, "debug", "models", "--bundled"}, []string{"HOME=" + home})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range got.Models[1:] {
		if !strings.Contains(string(out), `"slug":"`+m.ID+`"`) {
			t.Errorf("%q is not in Codex's own catalogue", m.ID)
		}
	}
}

// Claude Code: the default, the documented aliases, the ones the installed
// binary's help names, then full ids the person's sessions used.
func TestClaudeModels(t *testing.T) {
	bin, ok := agentbin.Find("claude")
	if !ok {
		t.Fatal("claude is not installed in build/agents: run make agents")
	}
	home := t.TempDir()
	r := NewRunner(RunnerOptions{Env: Env{Home: home, Environ: []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}}, Bins: map[Agent]string{Claude: bin}})
	got := r.CLIModels(context.Background(), Claude, func() []string { return []string{"claude-sonnet-4-5-20250929", "<synthetic>", "opus"} })
	var ids []string
	for _, m := range got.Models {
		ids = append(ids, m.ID)
	}
	if len(ids) < 5 || !slices.Equal(ids[:4], []string{"", "sonnet", "opus", "haiku"}) || ids[len(ids)-1] != "claude-sonnet-4-5-20250929" || slices.Contains(ids, "<synthetic>") {
		t.Fatalf("ids %q", ids)
	}
	if !strings.Contains(got.Source, "claude --help") {
		t.Errorf("source %q: the installed binary's help was not read", got.Source)
	}
}
