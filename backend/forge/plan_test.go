package forge

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The plan names the files the agent left uncommitted (only commits are
// pushed), staged, changed or new; ignored files are not named, and a
// folder with another branch checked out names none.
func TestPlanNamesUncommittedFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cafe")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	mustGit(t, dir, "init", "-q", "-b", "main")
	for name, text := range map[string]string{"menu.md": "tea\n", "hours.md": "8 to 4\n", ".gitignore": "*.log\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mustGit(t, dir, "add", "-A")
	mustGit(t, dir, "commit", "-q", "-m", "first")
	mustGit(t, dir, "remote", "add", "origin", "https://github.com/osfoundry-e2e/cafe.git")
	mustGit(t, dir, "update-ref", "refs/remotes/origin/main", "HEAD")
	mustGit(t, dir, "checkout", "-q", "-b", "osf/cake")
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("cake.md", "Fridays\n")
	mustGit(t, dir, "add", "cake.md")
	mustGit(t, dir, "commit", "-q", "-m", "Cake on Fridays")
	write("menu.md", "tea, cake\n") // changed
	write("prices.md", "3\n")       // new
	write("hours.md", "9 to 5\n")
	mustGit(t, dir, "add", "hours.md") // staged
	write("debug.log", "ignored\n")

	settings, err := OpenSettings(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	kc := memKeychain{}
	noCLI := func(context.Context, string, ...string) (string, error) { return "", errors.New("not installed") }
	b := NewBinding(context.Background(), NewOpener(settings, kc, noCLI), settings, kc, nil)
	p, err := b.Plan(dir, "osf/cake", "main")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(p.Uncommitted, ","); got != "hours.md,menu.md,prices.md" {
		t.Fatalf("uncommitted = %q", got)
	}
	if len(p.Draft.Commits) != 1 || p.Draft.Title != "Cake on Fridays" {
		t.Fatalf("draft = %+v", p.Draft)
	}
	mustGit(t, dir, "stash", "-q", "--include-untracked")
	mustGit(t, dir, "checkout", "-q", "main")
	write("menu.md", "tea, milk\n") // main's own change is not the branch's
	if p, err := b.Plan(dir, "osf/cake", "main"); err != nil || len(p.Uncommitted) != 0 {
		t.Fatalf("another branch checked out: %+v, %v", p.Uncommitted, err)
	}
}
