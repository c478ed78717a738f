package inventory

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// pinnedHelp is the real --help output of the pinned CLIs (build/agents),
// saved as printed to a pipe: commander wraps at 80 columns, so a
// `(choices: …)` list runs over several lines.
func pinnedHelp(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "help", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestParseHelpPinnedVersions(t *testing.T) {
	cases := []struct {
		name, file string
		flags      []string // flags that must be read
		flag       string
		want       []string // the accepted values, in order; nil: none listed
	}{
		{"claude permission modes wrap over four lines", "claude-2.1.328--help.txt", []string{"--model", "--effort", "--resume", "-r", "--fork-session"},
			"--permission-mode", []string{"acceptEdits", "auto", "bypassPermissions", "manual", "dontAsk", "plan"}},
		{"claude output formats wrap over two lines", "claude-2.1.328--help.txt", nil,
			"--output-format", []string{"text", "json", "stream-json"}},
		{"claude choices followed by a default", "claude-2.1.328--help.txt", nil,
			"--permission-prompts", []string{"host", "none"}},
		{"claude effort lists its levels in plain parentheses", "claude-2.1.328--help.txt", nil,
			"--effort", []string{"low", "medium", "high", "xhigh", "max"}},
		{"an example in parentheses is not a list of values", "claude-2.1.328--help.txt", nil, "--disallowedTools", nil},
		{"codex resume sandbox", "codex-0.169.0-resume--help.txt", []string{"-m", "--model", "-c", "-a", "-s"},
			"-s", []string{"read-only", "workspace-write", "danger-full-access"}},
		{"codex resume approval list", "codex-0.169.0-resume--help.txt", nil,
			"--ask-for-approval", []string{"on-request", "never"}},
		{"codex exec resume has no -a", "codex-0.169.0-exec-resume--help.txt", []string{"-m", "-c"}, "-a", nil},
		{"codex exec fork takes the model", "codex-0.169.0-exec-fork--help.txt", []string{"-m", "-c", "--json"}, "-s", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			caps := parseHelp(pinnedHelp(t, c.file))
			for _, f := range c.flags {
				if !caps.has(f) {
					t.Errorf("flag %s not read", f)
				}
			}
			if got := caps.values[c.flag]; !slices.Equal(got, c.want) {
				t.Errorf("%s accepts %q, want %q", c.flag, got, c.want)
			}
		})
	}
}

// A recorded plan, dontAsk or bypassPermissions mode is read against the
// real claude --help: plan is passed, the permissive ones are offered as a
// tick and passed when ticked.
func TestPlanClaudeModesWithPinnedHelp(t *testing.T) {
	const id = "c5e1a7b2-9d40-4f3e-8b16-2a7c0e9d4f58"
	help := map[string]string{"claude --help": pinnedHelp(t, "claude-2.1.328--help.txt")}
	cases := []struct {
		mode     string
		keep     bool
		want     string
		handling string
	}{
		{"plan", false, "claude --resume " + id + " --permission-mode plan", "kept (--permission-mode)"},
		{"dontAsk", false, "claude --resume " + id, "not passed: it asks less than the default; tick it to keep it for this launch"},
		{"dontAsk", true, "claude --resume " + id + " --permission-mode dontAsk", "kept (--permission-mode)"},
		{"bypassPermissions", false, "claude --resume " + id, "not passed: it asks less than the default; tick it to keep it for this launch"},
		{"bypassPermissions", true, "claude --resume " + id + " --permission-mode bypassPermissions", "kept (--permission-mode)"},
		{"default", false, "claude --resume " + id, "kept: it is claude's default, so nothing is passed"},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			pl, err := planFor(t, Session{App: ClaudeCode, ID: id, Mode: c.mode}, PlanOptions{KeepPermissions: c.keep}, &fakeRunner{help: help})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(pl.Argv, " "); got != c.want {
				t.Errorf("argv %q, want %q", got, c.want)
			}
			v := pl.Values[len(pl.Values)-1]
			if v.Label != "Approval mode" || v.Handling != c.handling {
				t.Errorf("note %+v, want handling %q", v, c.handling)
			}
			if v.Permissive != (c.mode == "dontAsk" || c.mode == "bypassPermissions") {
				t.Errorf("permissive = %v", v.Permissive)
			}
		})
	}
}

// An effort level the installed claude does not list is shown, not passed.
func TestPlanClaudeEffortWithPinnedHelp(t *testing.T) {
	help := map[string]string{"claude --help": pinnedHelp(t, "claude-2.1.328--help.txt")}
	for effort, want := range map[string]string{"xhigh": "claude --resume abc --effort xhigh", "ultra": "claude --resume abc"} {
		pl, err := planFor(t, Session{App: ClaudeCode, ID: "abc", Effort: effort}, PlanOptions{}, &fakeRunner{help: help})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(pl.Argv, " "); got != want {
			t.Errorf("effort %s: argv %q, want %q", effort, got, want)
		}
	}
}

func TestHelpCacheReadsRealHelp(t *testing.T) {
	r := &fakeRunner{help: map[string]string{"codex resume --help": pinnedHelp(t, "codex-0.169.0-resume--help.txt")}}
	c := (&helpCache{}).get(context.Background(), r, "codex", "resume", "--help")
	if ok, listed := c.accepts("untrusted", "-a"); ok || !listed {
		t.Fatalf("codex 0.169 resume -a: untrusted accepted=%v listed=%v", ok, listed)
	}
}
