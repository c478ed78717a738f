// Package agentbin locates the pinned real agent CLIs that build/scripts/agents.sh
// installs into build/agents, so any package's tests can run the real programs.
package agentbin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

const modulePath = "github.com/osfoundry/desktop"

var (
	rootOnce sync.Once
	rootDir  string
	rootErr  error
)

// Root returns the module root (the folder holding this module's go.mod),
// found by walking up from the working directory. Tests run in their package
// folder, so walking up is what makes the helper work from any package.
func Root() (string, error) {
	rootOnce.Do(func() {
		wd, err := os.Getwd()
		if err != nil {
			rootErr = fmt.Errorf("finding module root: %w", err)
			return
		}
		for dir := wd; ; {
			if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil &&
				bytes.Contains(b, []byte("module "+modulePath+"\n")) {
				rootDir = dir
				return
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				rootErr = errors.New("finding module root: no go.mod of " + modulePath + " above " + wd)
				return
			}
			dir = parent
		}
	})
	return rootDir, rootErr
}

// Dir is the folder the agents are installed in (build/agents).
func Dir() (string, error) {
	root, err := Root()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "build", "agents"), nil
}

// Find returns the path of an installed agent binary such as "claude" or
// "codex" (build/agents/node_modules/.bin/<name>), and whether it exists.
func Find(name string) (string, bool) {
	dir, err := Dir()
	if err != nil {
		return "", false
	}
	p := filepath.Join(dir, "node_modules", ".bin", name)
	st, err := os.Stat(p)
	if err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
		return "", false
	}
	return p, true
}

// Version returns the installed version of an npm package from its
// package.json (e.g. Version("@openai/codex")), used to name fixtures.
func Version(pkg string) (string, error) {
	dir, err := Dir()
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile(filepath.Join(dir, "node_modules", pkg, "package.json"))
	if err != nil {
		return "", fmt.Errorf("reading version of %s (run build/scripts/agents.sh): %w", pkg, err)
	}
	var v struct{ Version string }
	if err := json.Unmarshal(b, &v); err != nil || v.Version == "" {
		return "", fmt.Errorf("reading version of %s: bad package.json: %v", pkg, err)
	}
	return v.Version, nil
}

// Packages maps the binary names to their npm packages.
var Packages = map[string]string{
	"claude":   "@anthropic-ai/claude-code",
	"codex":    "@openai/codex",
	"gemini":   "@google/gemini-cli",
	"qwen":     "@qwen-code/qwen-code",
	"opencode": "opencode-ai",
	"copilot":  "@github/copilot",
}

// SkipMessage is the message live tests skip with when a binary is absent,
// so the reason and the fix are always the same and never silent.
func SkipMessage(name string) string {
	return fmt.Sprintf("real %s CLI not installed in build/agents: run build/scripts/agents.sh (make agents) to run this live test", name)
}
