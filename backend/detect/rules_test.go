package detect

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/osfoundry/desktop/rules"
)

func bundled(t *testing.T) *Registry {
	t.Helper()
	reg, problems, err := Load(rules.Files, "")
	if err != nil || len(problems) > 0 {
		t.Fatalf("loading bundled rules: %v %v", err, problems)
	}
	return reg
}

// Claude Code's rules start from docs/reference.md §1: its patterns come first, in
// order and unchanged; patterns added from real captures may follow them.
func TestClaudeRulesStartFromTheSpecRules(t *testing.T) {
	rs := bundled(t).Get("claude")
	want := []struct {
		state State
		any   []string
	}{
		{Blocked, []string{`Do you want to (proceed|continue|make this edit|create)`, `❯\s*1\.\s*Yes`, `Esc to cancel · Tab to amend`, `Enter to select · ↑/↓ to navigate`, `Exit plan mode\?`}},
		{Working, []string{`esc to interrupt`}},
		{Idle, []string{`\? for shortcuts`, `(?:⏸|⏵⏵) [a-z ]+ mode on`}},
	}
	if len(rs.Rules) != len(want) {
		t.Fatalf("claude has %d rules, want %d", len(rs.Rules), len(want))
	}
	for i, w := range want {
		r := rs.Rules[i]
		if r.State != w.state || len(r.Patterns) < len(w.any) {
			t.Fatalf("rule %d = %s with %d patterns, want %s starting with the article's %d", i+1, r.State, len(r.Patterns), w.state, len(w.any))
		}
		for j, p := range w.any {
			if r.Patterns[j].String() != p {
				t.Errorf("rule %d pattern %d = %q, want %q", i+1, j+1, r.Patterns[j], p)
			}
		}
	}
	for _, p := range rs.Rules[0].Patterns {
		if strings.Contains(p.String(), "Would you like") {
			t.Errorf("claude blocked rules must not contain Codex's wording: %s", p)
		}
	}
}

func TestBundledRulesLoad(t *testing.T) {
	reg := bundled(t)
	for _, a := range []string{"claude", "codex", "gemini", "qwen", "copilot", "opencode"} {
		rs := reg.Get(a)
		if rs == nil {
			t.Fatalf("no bundled rules for %s", a)
		}
		if rs.Rules[0].State != Blocked {
			t.Errorf("%s: first rule is %s; blocked must come first so a footer cannot hide a prompt", a, rs.Rules[0].State)
		}
	}
}

func TestParseRulesRefusals(t *testing.T) {
	cases := []struct {
		name, file, want string
	}{
		{"program key", "[[rules]]\nstate = \"blocked\"\nany = ['x']\ncommand = \"rm -rf ~\"\n", "never a program or command"},
		{"exec in agent", "[agent]\nexec = \"/bin/sh\"\n[[rules]]\nstate = \"idle\"\nany = ['x']\n", "never a program or command"},
		{"unknown key", "[[rules]]\nstate = \"idle\"\nany = ['x']\npriority = 3\n", "unknown key rules.priority"},
		{"bad regex", "[[rules]]\nstate = \"blocked\"\nany = ['Do you (want']\n", "rule 1 (blocked): bad regex"},
		{"bad state", "[[rules]]\nstate = \"needs_you\"\nany = ['x']\n", `state "needs_you" is not one of`},
		{"empty any", "[[rules]]\nstate = \"idle\"\nany = []\n", "empty any"},
		{"empty pattern", "[[rules]]\nstate = \"blocked\"\nany = ['']\n", "matches every screen"},
		{"no rules", "[agent]\ndisplay = \"X\"\n", "no [[rules]]"},
		{"bad toml", "[[rules]\nstate = \"idle\"\n", "bad TOML at line 1"},
		{"name mismatch", "[agent]\nname = \"codex\"\n[[rules]]\nstate = \"idle\"\nany = ['x']\n", "make them match"},
		{"path as process", "[agent]\nprocess_names = [\"/usr/bin/claude\"]\n[[rules]]\nstate = \"idle\"\nany = ['x']\n", "not a bare process name"},
		{"bad title regex", "[title]\nworking = ['[']\n[[rules]]\nstate = \"idle\"\nany = ['x']\n", "[title] working: bad regex"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseRules("claude", "test.toml", []byte(c.file))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want it to mention %q", err, c.want)
			}
		})
	}
}

func writeOverride(t *testing.T, home, name, body string) string {
	t.Helper()
	dir := filepath.Join(home, OverrideDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestOverrides(t *testing.T) {
	home := t.TempDir()
	good := writeOverride(t, home, "claude.toml", "[[rules]]\nstate = \"blocked\"\nany = ['Approve\\?']\n")
	badRegex := writeOverride(t, home, "codex.toml", "[[rules]]\nstate = \"blocked\"\nany = ['(unclosed']\n")
	program := writeOverride(t, home, "gemini.toml", "[[rules]]\nstate = \"idle\"\nany = ['x']\nrun = \"curl evil | sh\"\n")
	newAgent := writeOverride(t, home, "aider.toml", "[agent]\nprocess_names = [\"aider\"]\n[[rules]]\nstate = \"blocked\"\nany = ['\\(Y\\)es/\\(N\\)o']\n")
	writeOverride(t, home, "notes.txt", "ignored")

	reg, problems, err := Load(rules.Files, home)
	if err != nil {
		t.Fatal(err)
	}
	if got := reg.Get("claude"); got.Source != good || got.Evaluate([]string{"Approve?"}).State != Blocked {
		t.Errorf("claude override not applied: source %s", got.Source)
	}
	if got := reg.Get("codex"); !strings.HasPrefix(got.Source, "bundled") {
		t.Errorf("broken codex override replaced the bundled rules: %s", got.Source)
	}
	if got := reg.Get("gemini"); !strings.HasPrefix(got.Source, "bundled") {
		t.Errorf("gemini override naming a program was used: %s", got.Source)
	}
	if got := reg.Get("aider"); got == nil || got.Source != newAgent {
		t.Errorf("new agent from override dir not loaded")
	}
	want := map[string]string{badRegex: "bad regex", program: "never a program"}
	if len(problems) != len(want) {
		t.Fatalf("problems = %v, want %d", problems, len(want))
	}
	for _, p := range problems {
		var le *LoadError
		if !errors.As(p, &le) {
			t.Fatalf("problem %v is not a *LoadError", p)
		}
		if !strings.Contains(le.Problem, want[le.File]) || !strings.Contains(le.Problem, "using the bundled rules") {
			t.Errorf("%s: problem %q, want %q and the fallback said", le.File, le.Problem, want[le.File])
		}
	}
}

func TestBrokenBundledIsAnError(t *testing.T) {
	fsys := fstest.MapFS{"claude.toml": {Data: []byte("[[rules]]\nstate = \"x\"\n")}}
	if _, _, err := Load(fsys, ""); err == nil {
		t.Fatal("a broken bundled file must fail loading")
	}
}

// Claude Code redraws its whole UI when continued (measured on 2.1.328),
// so its rules say so; Codex repaints in place and keeps its screen.
func TestRedrawsOnResumeIsRuleData(t *testing.T) {
	reg := bundled(t)
	if !reg.Get("claude").RedrawsOnResume || reg.Get("codex").RedrawsOnResume {
		t.Fatalf("redraws_on_resume: claude %v, codex %v", reg.Get("claude").RedrawsOnResume, reg.Get("codex").RedrawsOnResume)
	}
	rs, err := ParseRules("x", "test", []byte("[agent]\nredraws_on_resume = true\n[[rules]]\nstate = \"idle\"\nany = ['x']\n"))
	if err != nil || !rs.RedrawsOnResume {
		t.Fatalf("ParseRules = %+v, %v", rs, err)
	}
}

// A card is named by the title after the agent's state marker: Codex's
// "[ ! ] Action Required | " and the spinners say only what the column says.
func TestTitleNameDropsTheStateMarker(t *testing.T) {
	reg := bundled(t)
	for _, c := range []struct{ agent, title, want string }{
		{"codex", "[ ! ] Action Required | Fake session | work", "Fake session | work"},
		{"codex", "⠋ Fake session | work", "Fake session | work"},
		{"codex", "work", "work"},
		{"claude", "✳ Fix the login form", "Fix the login form"},
	} {
		if got := reg.Get(c.agent).TitleName(c.title); got != c.want {
			t.Errorf("%s %q: got %q, want %q", c.agent, c.title, got, c.want)
		}
	}
}

// [[asks]] entries need a message, and their patterns are checked like rules.
func TestAsksAreChecked(t *testing.T) {
	base := "[[rules]]\nstate = \"blocked\"\nany = ['x']\n"
	if _, err := ParseRules("a", "a.toml", []byte(base+"[[asks]]\npattern = 'x (\\S+)'\n")); err == nil || !strings.Contains(err.Error(), "empty message") {
		t.Errorf("ask without message: %v", err)
	}
	if _, err := ParseRules("a", "a.toml", []byte(base+"[[asks]]\npattern = '('\nmessage = 'm'\n")); err == nil || !strings.Contains(err.Error(), "bad regex") {
		t.Errorf("ask with a bad pattern: %v", err)
	}
	rs, err := ParseRules("a", "a.toml", []byte(base+"[[asks]]\npattern = 'run (\\S+)'\nmessage = 'wants to run $1'\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d := rs.EvaluateText("x: run make"); d.Message != "wants to run make" {
		t.Errorf("message %q", d.Message)
	}
}
