package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/testkit/agentbin"
)

// `osfoundry sessions resume` prints the relaunch of a session recorded in
// plan mode with the real Claude Code 2.1.328 on PATH, whose --help wraps
// the --permission-mode choices over four lines: plan is read from it and
// passed.
func TestSessionsResumePrintsPlanModeWithRealClaude(t *testing.T) {
	claude, ok := agentbin.Find("claude")
	if !ok {
		t.Skip(agentbin.SkipMessage("claude"))
	}
	t.Setenv("PATH", filepath.Dir(claude)+string(os.PathListSeparator)+os.Getenv("PATH"))
	home, folder := t.TempDir(), t.TempDir()
	id := "5b1e9c3a-7d24-4f8e-9a61-0c2d4e6f8a10"
	rec, _ := json.Marshal(map[string]any{"type": "user", "sessionId": id, "cwd": folder, "timestamp": "2026-11-01T10:00:00Z",
		"uuid": "u1", "permissionMode": "plan", "message": map[string]any{"role": "user", "content": "Plan the invoice export"}})
	dir := filepath.Join(home, ".claude", "projects", regexp.MustCompile(`[^A-Za-z0-9]`).ReplaceAllString(folder, "-"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, id+".jsonl"), append(rec, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	out := runOK(t, "sessions", "resume", "--home", home, id)
	if !strings.Contains(out, "argv    claude --resume "+id+" --permission-mode plan\n") || !strings.Contains(out, "Approval mode plan: kept (--permission-mode)") {
		t.Fatalf("resume plan:\n%s", out)
	}
}
