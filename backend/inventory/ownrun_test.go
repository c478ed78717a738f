package inventory

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// copyStore copies a recorded store into a temporary home and replaces the
// prompt the CLI was given ("Say hello") with prompt everywhere it was
// recorded (transcript lines as JSON strings, Codex's threads table), so
// the files keep every other byte the real CLI wrote.
func copyStore(t *testing.T, name, prompt string) string {
	return copyStoreReplacing(t, name, "Say hello", prompt)
}

func copyStoreReplacing(t *testing.T, name, was, prompt string) string {
	t.Helper()
	home := t.TempDir()
	if err := os.CopyFS(home, os.DirFS(realStore(t, name))); err != nil {
		t.Fatal(err)
	}
	if prompt == "" {
		return home
	}
	old, _ := json.Marshal(was)
	repl, _ := json.Marshal(prompt)
	err := filepath.WalkDir(home, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".jsonl" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(p, bytes.ReplaceAll(b, old, repl), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	dbs, _ := filepath.Glob(filepath.Join(home, ".codex", "state_*.sqlite"))
	for _, p := range dbs {
		db, err := sql.Open("sqlite", "file:"+p)
		if err != nil {
			t.Fatal(err)
		}
		_, err = db.Exec(`UPDATE threads SET title = ?, first_user_message = ?, preview = ?`, prompt, prompt, prompt)
		db.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	return home
}

// The app's prompts: the conversation as "User: …" blocks (agentcli's
// Transcript), after the role's system prompt for Codex (CodexPrompt).
const (
	appClaudePrompt = "User: Plan the launch checklist\n\nAssistant: Which date?\n\nUser: Friday"
	appCodexPrompt  = "You are the Worker. Do the task in the folder.\n\nUser: Fix the failing build"
)

func TestOwnRunsRecognisedInRealStores(t *testing.T) {
	cases := []struct {
		name, store, was, prompt string
		own                      bool
		why, title               string
	}{
		{"a person's own claude -p", "claude-headless-2.1.328.text", "Say hello", "", false, "", "Say hello"},
		{"the app's claude -p", "claude-headless-2.1.328.text", "Say hello", appClaudePrompt, true, RunWhyPrompt, "Plan the launch checklist"},
		{"an interactive claude typed like the app", "claude-2.1.328", "Create a marker file with the shell, then write hello.txt", appClaudePrompt, false, "", ""},
		{"a person's own codex exec", "codex-headless-0.169.0.text", "Say hello", "", false, "", "Say hello"},
		{"the app's codex exec", "codex-headless-0.169.0.text", "Say hello", appCodexPrompt, true, RunWhyPrompt, "Fix the failing build"},
		{"the app's sign-in check", "codex-headless-0.169.0.text", "Say hello", "Reply with the single word: ok", true, RunWhyVerify, "Verify sign-in"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home := copyStoreReplacing(t, c.store, c.was, c.prompt)
			svc := newTestService(t, home, nil, nil)
			refresh(t, svc)
			s := onlySession(t, svc)
			if s.OwnRun != c.own || s.RunWhy != c.why {
				t.Fatalf("own run = %v (%q), want %v (%q): %+v", s.OwnRun, s.RunWhy, c.own, c.why, s)
			}
			if c.title != "" && s.Title != c.title {
				t.Fatalf("title %q, want %q", s.Title, c.title)
			}
			if n := svc.Apps()[appIndex(s.App)].OwnRuns; n != map[bool]int{true: 1}[c.own] {
				t.Fatalf("Apps() counts %d own runs for %s", n, s.App)
			}
		})
	}
}

func appIndex(a AppID) int {
	for i, x := range AllApps {
		if x == a {
			return i
		}
	}
	return -1
}

// A session id the app recorded marks the run whatever its prompt, with
// the title the app knows it by, as soon as the app records it.
func TestRecordedRunIDs(t *testing.T) {
	home := copyStore(t, "claude-headless-2.1.328.text", "")
	var known []KnownRun
	svc := newTestService(t, home, nil, nil)
	svc.SetRunSource(func(context.Context) ([]KnownRun, error) { return known, nil })
	refresh(t, svc)
	s := onlySession(t, svc)
	if s.OwnRun {
		t.Fatalf("nothing recorded yet, but %+v is an own run", s)
	}
	known = []KnownRun{{SessionID: s.ID, Title: "Release notes for 2.4", ChatID: "c-1", RunID: "r-1"}}
	// The list reads the run table again after a second at most.
	deadline := time.Now().Add(10 * time.Second)
	for !onlySession(t, svc).OwnRun {
		if time.Now().After(deadline) {
			t.Fatal("the recorded id never marked the session")
		}
		time.Sleep(50 * time.Millisecond)
	}
	s = onlySession(t, svc)
	if s.RunWhy != RunWhyRecorded || s.RunTitle != "Release notes for 2.4" || s.Title != "Release notes for 2.4" || s.ChatID != "c-1" {
		t.Fatalf("got %+v", s)
	}
	if got := svc.List("release notes", ""); len(got) != 1 {
		t.Fatalf("search by the run's title found %d", len(got))
	}
	d, err := svc.Detail(s.Key)
	if err != nil {
		t.Fatal(err)
	}
	if !hasField(d, "osFoundry run", RunWhyRecorded) {
		t.Fatalf("detail fields %+v", d.Fields)
	}
	// A failing run table keeps what was known.
	svc.SetRunSource(func(context.Context) ([]KnownRun, error) { return nil, errors.New("database is locked") })
	if !onlySession(t, svc).OwnRun {
		t.Fatal("a failing read of the run table dropped the known runs")
	}
}

func hasField(d Detail, label, value string) bool {
	for _, f := range d.Fields {
		if f.Label == label && f.Value == value {
			return true
		}
	}
	return false
}

func TestRunBranchMarksARun(t *testing.T) {
	home := t.TempDir()
	id := "0b6f7c1e-2a34-4d5e-9f60-718293a4b5c6"
	write(t, filepath.Join(home, ".claude", "projects", "-w", id+".jsonl"),
		claudeLines(id, "/w/.osfoundry/worktrees/r-1", "osf/run-r-1", "Tidy the logs"))
	svc := newTestService(t, home, nil, nil)
	refresh(t, svc)
	if s := onlySession(t, svc); !s.OwnRun || s.RunWhy != RunWhyBranch {
		t.Fatalf("got %+v", s)
	}
}

func TestAppPromptTask(t *testing.T) {
	cases := []struct {
		prompt      string
		afterSystem bool
		task        string
		ok          bool
	}{
		{"User: Fix it", false, "Fix it", true},
		{"User: Fix it\n\nAssistant: Done.\n\nUser: Thanks", false, "Fix it", true},
		{"Assistant: Earlier answer\n\nUser: Go on", false, "Go on", true},
		{"System text\n\nUser: Fix it", false, "", false},
		{"System text\n\nUser: Fix it", true, "Fix it", true},
		{"Say hello", true, "", false},
		{"Users: are people", false, "", false},
	}
	for _, c := range cases {
		task, ok := appPromptTask(c.prompt, c.afterSystem)
		if task != c.task || ok != c.ok {
			t.Errorf("appPromptTask(%q, %v) = %q, %v; want %q, %v", c.prompt, c.afterSystem, task, ok, c.task, c.ok)
		}
	}
}
