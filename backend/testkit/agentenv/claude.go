package agentenv

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
)

// FakeAnthropicKey is what the apiKeyHelper prints. It is not a real key; the
// fake server accepts anything.
const FakeAnthropicKey = "sk-ant-osf-fake-0000"

// ClaudeBypassAsRoot is the variable Claude Code needs to accept
// --permission-mode bypassPermissions when run as root (CI containers run as
// root; without it the CLI exits with "cannot be used with root/sudo
// privileges"). Add it only to runs that bypass permissions.
const ClaudeBypassAsRoot = "IS_SANDBOX=1"

// NewClaude builds a Claude Code sandbox: HOME with settings.json (an
// apiKeyHelper, so no key-approval dialog) and .claude.json (onboarding done,
// the work folder trusted unless o.Untrusted, so interactive mode does not go
// online), and an
// environment pointing at the fake server with the autoupdater off.
func NewClaude(o Options) (*Env, error) {
	e, err := newEnv("claude", o)
	if err != nil {
		return nil, err
	}
	settings := map[string]any{
		"apiKeyHelper": "echo " + FakeAnthropicKey,
	}
	state := map[string]any{
		"hasCompletedOnboarding":        true,
		"lastOnboardingVersion":         "2.1.328",
		"theme":                         "dark",
		"bypassPermissionsModeAccepted": true,
		"autoUpdates":                   false,
		"projects": map[string]any{
			e.Work: map[string]any{
				"hasTrustDialogAccepted":        true,
				"hasCompletedProjectOnboarding": true,
				"allowedTools":                  []string{},
			},
		},
	}
	if o.Untrusted {
		delete(state, "projects")
	}
	if err := writeJSONFile(filepath.Join(e.Home, ".claude", "settings.json"), settings); err != nil {
		return nil, err
	}
	if err := writeJSONFile(filepath.Join(e.Home, ".claude.json"), state); err != nil {
		return nil, err
	}
	e.Env = append(e.Env,
		"ANTHROPIC_BASE_URL="+o.ModelURL,
		"DISABLE_AUTOUPDATER=1",
	)
	e.Env = append(e.Env, o.Extra...)
	return e, nil
}

// Claude is NewClaude for tests: skips when the CLI is not installed, and
// cleans up when the test ends.
func Claude(tb testing.TB, modelURL string, extra ...string) *Env {
	tb.Helper()
	if _, ok := findOrSkip(tb, "claude"); !ok {
		return nil
	}
	e, err := NewClaude(Options{ModelURL: modelURL, Base: tb.TempDir(), Extra: extra})
	if err != nil {
		tb.Fatal(err)
	}
	return register(tb, e)
}

func writeJSONFile(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding %s: %w", path, err)
	}
	return writeFile(path, string(b)+"\n")
}
