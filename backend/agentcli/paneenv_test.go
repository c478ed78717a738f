package agentcli

import (
	"slices"
	"testing"
)

func TestPaneEnv(t *testing.T) {
	env := []string{"HOME=/h", "ANTHROPIC_API_KEY=sk-ant-x", "OSF_CORP_KEY=k", "CLAUDE_CODE_USE_BEDROCK=1"}
	tests := []struct {
		name       string
		argv       []string
		env        []string
		want       []string
		wantNotice string
	}{
		{"claude by name", []string{"claude", "--resume", "abc"}, env,
			[]string{"HOME=/h", "OSF_CORP_KEY=k", "CLAUDE_CODE_USE_BEDROCK=1"}, PaneNotice},
		{"claude by path", []string{"/home/u/.npm-global/bin/claude"}, env,
			[]string{"HOME=/h", "OSF_CORP_KEY=k", "CLAUDE_CODE_USE_BEDROCK=1"}, PaneNotice},
		{"claude.exe on Windows", []string{`C:\Users\u\AppData\Roaming\npm\claude.CMD`}, env,
			[]string{"HOME=/h", "OSF_CORP_KEY=k", "CLAUDE_CODE_USE_BEDROCK=1"}, PaneNotice},
		{"no key set: nothing to say", []string{"claude"}, []string{"HOME=/h", "ANTHROPIC_API_KEY="}, []string{"HOME=/h"}, ""},
		{"codex keeps everything", []string{"codex"}, env, env, ""},
		{"a shell keeps everything", nil, env, env, ""},
		{"claude-like names are not claude", []string{"claude-monitor"}, env, env, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, notice := PaneEnv(tt.argv, slices.Clone(tt.env))
			if !slices.Equal(got, tt.want) || notice != tt.wantNotice {
				t.Errorf("PaneEnv(%q) = %q, %q; want %q, %q", tt.argv, got, notice, tt.want, tt.wantNotice)
			}
		})
	}
}
