package board

import "testing"

func TestArgvModel(t *testing.T) {
	for _, c := range []struct {
		name string
		argv []string
		want string
	}{
		{"claude --model", []string{"claude", "--model", "opus"}, "opus"},
		{"full path, = form", []string{"/home/me/.local/bin/claude", "--resume", "abc", "--model=claude-sonnet-4-5-20250929"}, "claude-sonnet-4-5-20250929"},
		{"codex -m", []string{"codex", "-m", "gpt-5.6-luna"}, "gpt-5.6-luna"},
		{"claude's -m is not --model", []string{"claude", "-m", "x"}, ""},
		{"after --", []string{"codex", "--", "-m", "x"}, ""},
		{"another program", []string{"npm", "--model", "x"}, ""},
		{"no model", []string{"claude"}, ""},
		{"flag without value", []string{"claude", "--model"}, ""},
		{"no argv", nil, ""},
		{"the app's ACP client", []string{"/opt/osfoundry/osfoundry-desktop", "acp", "--model", "haiku", "--", "claude-agent-acp"}, "haiku"},
		{"ACP client, the adapter's own --model", []string{"/opt/osfoundry/osfoundry-desktop", "acp", "--", "gemini", "--model", "x"}, ""},
	} {
		if got := ArgvModel(c.argv); got != c.want {
			t.Errorf("%s: ArgvModel(%q) = %q, want %q", c.name, c.argv, got, c.want)
		}
	}
}
