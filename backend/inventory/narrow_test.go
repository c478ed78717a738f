package inventory

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func appendLine(t *testing.T, p string, rec any) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(jsonl(rec)); err != nil {
		t.Fatal(err)
	}
}

func titleOf(t *testing.T, svc *Service, key string) string {
	t.Helper()
	return find(t, svc, key).Title
}

func TestRefreshDirsRereadsOnlyTheFoldersGiven(t *testing.T) {
	home := t.TempDir()
	projects := filepath.Join(home, ".claude", "projects")
	a, b := filepath.Join(projects, "-w-a"), filepath.Join(projects, "-w-b")
	pa := write(t, filepath.Join(a, "a1.jsonl"), claudeLines("a1", "/w/a", "main", "first a"))
	pa2 := write(t, filepath.Join(a, "a2.jsonl"), claudeLines("a2", "/w/a", "main", "second a"))
	pb := write(t, filepath.Join(b, "b1.jsonl"), claudeLines("b1", "/w/b", "main", "first b"))
	pb2 := write(t, filepath.Join(b, "b2.jsonl"), claudeLines("b2", "/w/b", "main", "second b"))
	g := write(t, filepath.Join(home, ".gemini", "tmp", "h1", "chats", "session-1.json"), `{"sessionId":"g1aaaaaa-1111-4111-8111-111111111111","projectHash":"h1","startTime":"2026-11-04T10:00:00Z","lastUpdated":"2026-11-04T10:01:00Z","messages":[{"id":"u1","timestamp":"2026-11-04T10:00:00Z","type":"user","content":"Explain the retry loop"}]}`)
	svc := newTestService(t, home, nil, nil)
	refresh(t, svc)
	ctx := context.Background()

	appendLine(t, pa, m{"type": "custom-title", "customTitle": "A grew", "sessionId": "a1"})
	appendLine(t, pb, m{"type": "custom-title", "customTitle": "B grew", "sessionId": "b1"})
	if err := os.Remove(pb2); err != nil {
		t.Fatal(err)
	}
	changed, err := svc.RefreshDirs(ctx, []string{a})
	if err != nil || !changed {
		t.Fatalf("RefreshDirs(a) = %v, %v; want a change", changed, err)
	}
	if got := titleOf(t, svc, "claude-code:a1"); got != "A grew" {
		t.Fatalf("a1 title = %q: the folder given must be re-read", got)
	}
	if got := titleOf(t, svc, "claude-code:b1"); got == "B grew" {
		t.Fatal("b1 was re-read: a narrowed refresh must not stat other folders")
	}
	find(t, svc, "claude-code:b2") // removed in b, but b was not listed

	// Nothing changed in a: no change, and b's sessions stay.
	if changed, err := svc.RefreshDirs(ctx, []string{a}); err != nil || changed {
		t.Fatalf("second RefreshDirs(a) = %v, %v; want no change", changed, err)
	}
	// A removal in a listed folder is seen.
	if err := os.Remove(pa2); err != nil {
		t.Fatal(err)
	}
	if changed, _ := svc.RefreshDirs(ctx, []string{a}); !changed {
		t.Fatal("a removed transcript in the listed folder must be dropped")
	}
	if _, err := svc.Find("claude-code:a2"); err == nil {
		t.Fatal("a2 is still listed after its file was removed")
	}
	// A session's subagents/ folder holds no sessions: nothing to do.
	if changed, err := svc.RefreshDirs(ctx, []string{filepath.Join(a, "a1", "subagents")}); err != nil || changed {
		t.Fatalf("RefreshDirs(subagents) = %v, %v; want no change", changed, err)
	}
	// The projects folder itself: a project came or went, so Claude Code is
	// listed whole (b's changes arrive), while Gemini is not touched.
	write(t, filepath.Join(projects, "-w-c", "c1.jsonl"), claudeLines("c1", "/w/c", "main", "third project"))
	if err := os.Remove(g); err != nil {
		t.Fatal(err)
	}
	if changed, _ := svc.RefreshDirs(ctx, []string{projects}); !changed {
		t.Fatal("RefreshDirs(projects) saw no change")
	}
	find(t, svc, "claude-code:c1")
	if got := titleOf(t, svc, "claude-code:b1"); got != "B grew" {
		t.Fatalf("b1 title = %q after a whole Claude Code listing", got)
	}
	if _, err := svc.Find("claude-code:b2"); err == nil {
		t.Fatal("b2 still listed after a whole Claude Code listing")
	}
	find(t, svc, "gemini-cli:g1aaaaaa-1111-4111-8111-111111111111")
	// A full refresh catches up with everything.
	refresh(t, svc)
	if _, err := svc.Find("gemini-cli:g1aaaaaa-1111-4111-8111-111111111111"); err == nil {
		t.Fatal("the removed Gemini session is still listed after a full refresh")
	}
}

func TestRefreshDirsCodexDateFolderAndHome(t *testing.T) {
	home := t.TempDir()
	day := filepath.Join(home, ".codex", "sessions", "2026", "11", "04")
	write(t, filepath.Join(day, "rollout-2026-11-04T10-00-00-t1.jsonl"), rollout("t1", "/w/web", "codex_cli_rs", "main", "First task", m{"model": "gpt-5.5"}))
	svc := newTestService(t, home, nil, nil)
	refresh(t, svc)
	write(t, filepath.Join(day, "rollout-2026-11-04T11-00-00-t2.jsonl"), rollout("t2", "/w/web", "codex_cli_rs", "main", "Second task", m{"model": "gpt-5.5"}))
	if changed, err := svc.RefreshDirs(context.Background(), []string{day}); err != nil || !changed {
		t.Fatalf("RefreshDirs(day) = %v, %v", changed, err)
	}
	if got := titleOf(t, svc, "codex-cli:t2"); got != "Second task" {
		t.Fatalf("t2 title = %q", got)
	}
	// Codex's home: the state database is the only unit there.
	sqliteFile(t, filepath.Join(home, ".codex", "state_5.sqlite"), codexThreadsSchema,
		`INSERT INTO threads (id, rollout_path, cwd, title, source, model, updated_at_ms) VALUES ('t1', '', '/w/web', 'Titled in the DB', 'cli', 'gpt-5.5', 1)`)
	if changed, err := svc.RefreshDirs(context.Background(), []string{filepath.Join(home, ".codex")}); err != nil || !changed {
		t.Fatalf("RefreshDirs(codex home) = %v, %v", changed, err)
	}
	if got := titleOf(t, svc, "codex-cli:t1"); got != "Titled in the DB" {
		t.Fatalf("t1 title = %q: want the state database's", got)
	}
	find(t, svc, "codex-cli:t2")
}

// TestWatcherNarrowRefreshFollowsAnAppend runs the watcher with the poll
// out of the way: the append is seen through file notifications alone.
func TestWatcherNarrowRefreshFollowsAnAppend(t *testing.T) {
	home := t.TempDir()
	p := write(t, filepath.Join(home, ".claude", "projects", "-w", "a.jsonl"), claudeLines("a", "/w", "main", "x"))
	svc, err := New(context.Background(), nil, Options{Env: Env{Home: home, GOOS: "linux"}, Runner: &fakeRunner{}, Poll: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	changed := make(chan struct{}, 10)
	defer svc.OnChange(func() { changed <- struct{}{} })()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := svc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	<-changed
	time.Sleep(50 * time.Millisecond) // let the watches be added
	appendLine(t, p, m{"type": "custom-title", "customTitle": "Renamed while running", "sessionId": "a"})
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Skip("no file notifications on this system (the poll covers it)")
	}
	if got := titleOf(t, svc, "claude-code:a"); got != "Renamed while running" {
		t.Fatalf("title = %q", got)
	}
}
