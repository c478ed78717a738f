//go:build !windows

package inventory

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestLoginFilesAreNeverOpened plants the CLIs' login files as FIFOs (an
// open for reading would block forever) and as mode-000 files, and
// requires a full scan, every transcript and every plan to finish.
func TestLoginFilesAreNeverOpened(t *testing.T) {
	home := otherAppsHome(t)
	codexHome, _ := codexHomeFixture(t)
	// Merge the Codex fixture into this home.
	if err := os.Rename(filepath.Join(codexHome, ".codex"), filepath.Join(home, ".codex")); err != nil {
		t.Fatal(err)
	}
	traps := []string{
		".claude/.credentials.json", ".claude.json", ".codex/auth.json", ".gemini/oauth_creds.json",
		".gemini/google_accounts.json", ".qwen/oauth_creds.json", ".local/share/opencode/auth.json",
		".copilot/config.json", ".local/share/devin/credentials.toml", ".gemini/antigravity-acp/acp_token.json",
		".claude/projects/-w-desk/trap.jsonl", ".codex/sessions/2026/11/04/rollout-trap.jsonl",
	}
	for _, p := range traps {
		full := filepath.Join(home, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.Remove(full)
		if err := syscall.Mkfifo(full, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(home, ".gemini", "projects.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		svc := newTestService(t, home, nil, &fakeRunner{branch: "main"})
		if _, err := svc.Refresh(context.Background()); err != nil {
			done <- err
			return
		}
		for _, s := range svc.List("", "") {
			if _, err := svc.Transcript(context.Background(), s.Key, 0, 20); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the scan blocked: something opened a login-file trap")
	}
}
