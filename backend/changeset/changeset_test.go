package changeset

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=Me", "GIT_AUTHOR_EMAIL=me@example.com",
		"GIT_COMMITTER_NAME=Me", "GIT_COMMITTER_EMAIL=me@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// newRepo is a repository on branch main with README.md and src/app.txt
// committed, and uncommitted work in README.md plus an untracked file.
func newRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	write(t, filepath.Join(dir, "README.md"), "hello\n")
	write(t, filepath.Join(dir, "src", "app.txt"), "one\ntwo\nthree\n")
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-q", "-m", "start")
	write(t, filepath.Join(dir, "README.md"), "hello\nmy uncommitted line\n")
	write(t, filepath.Join(dir, "notes.txt"), "untracked\n")
	return dir
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func branches(t *testing.T, dir string) string {
	return git(t, dir, "branch", "--list", "osfoundry/*")
}

func TestApplyFilesOnNewBranchLeavesCheckoutAlone(t *testing.T) {
	repo := newRepo(t)
	head := git(t, repo, "rev-parse", "HEAD")
	status := git(t, repo, "status", "--porcelain")
	res, err := Apply(context.Background(), repo, "prop_1", "Add refunds page", Change{Files: []File{
		{Path: "docs/refunds.md", Content: "# Refunds\n"},
		{Path: "src/app.txt", Content: "one\n2\nthree\n"},
	}})
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if res.Branch != "osfoundry/proposal-prop_1" {
		t.Fatalf("branch = %q", res.Branch)
	}
	if got := git(t, repo, "rev-parse", "--abbrev-ref", "HEAD"); got != "main" {
		t.Fatalf("checked-out branch changed to %q", got)
	}
	if got := git(t, repo, "rev-parse", "HEAD"); got != head {
		t.Fatalf("HEAD moved")
	}
	if got := read(t, filepath.Join(repo, "README.md")); got != "hello\nmy uncommitted line\n" {
		t.Fatalf("uncommitted work changed: %q", got)
	}
	if got := read(t, filepath.Join(repo, "src", "app.txt")); got != "one\ntwo\nthree\n" {
		t.Fatalf("checkout's file changed: %q", got)
	}
	if got := git(t, repo, "status", "--porcelain"); got != status {
		t.Fatalf("status changed:\n%s\nwas\n%s", got, status)
	}
	if got := git(t, repo, "show", res.Branch+":docs/refunds.md"); got != "# Refunds" {
		t.Fatalf("branch content = %q", got)
	}
	if got := git(t, repo, "log", "-1", "--format=%an|%s", res.Branch); got != "osFoundry|Add refunds page" {
		t.Fatalf("commit = %q", got)
	}
	if got := git(t, repo, "rev-parse", res.Branch+"^"); got != head {
		t.Fatalf("branch does not start at HEAD")
	}
	if !strings.Contains(res.Diff, "+# Refunds") || !strings.Contains(res.Diff, "-two") {
		t.Fatalf("diff = %q", res.Diff)
	}
	if got := git(t, repo, "worktree", "list", "--porcelain"); strings.Count(got, "worktree ") != 1 {
		t.Fatalf("worktree left behind:\n%s", got)
	}
}

func TestApplyPatch(t *testing.T) {
	repo := newRepo(t)
	patch := "--- a/src/app.txt\n+++ b/src/app.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n"
	res, err := Apply(context.Background(), repo, "prop_2", "Shout two", Change{Patch: patch})
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if got := git(t, repo, "show", res.Branch+":src/app.txt"); got != "one\nTWO\nthree" {
		t.Fatalf("branch content = %q", got)
	}
}

func TestStalePatchLeavesNothing(t *testing.T) {
	repo := newRepo(t)
	patch := "--- a/src/app.txt\n+++ b/src/app.txt\n@@ -1,3 +1,3 @@\n one\n-zwei\n+TWO\n three\n"
	_, err := Apply(context.Background(), repo, "prop_3", "Stale", Change{Patch: patch})
	if !errors.Is(err, ErrStale) {
		t.Fatalf("err = %v, want ErrStale", err)
	}
	if !strings.Contains(err.Error(), "src/app.txt") {
		t.Fatalf("error does not name the file: %v", err)
	}
	if b := branches(t, repo); b != "" {
		t.Fatalf("branch left behind: %q", b)
	}
	if got := git(t, repo, "worktree", "list", "--porcelain"); strings.Count(got, "worktree ") != 1 {
		t.Fatalf("worktree left behind:\n%s", got)
	}
}

func TestRefusedInput(t *testing.T) {
	repo := newRepo(t)
	if err := os.Symlink("/etc", filepath.Join(repo, "etc")); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "add", "etc")
	git(t, repo, "commit", "-q", "-m", "link")
	cases := []struct {
		name string
		c    Change
		want string
	}{
		{"dotdot", Change{Files: []File{{Path: "../outside.txt", Content: "x"}}}, ".."},
		{"dotdot inside", Change{Files: []File{{Path: "src/../../x", Content: "x"}}}, ".."},
		{"absolute", Change{Files: []File{{Path: "/tmp/x", Content: "x"}}}, "relative"},
		{"git dir", Change{Files: []File{{Path: ".git/hooks/pre-commit", Content: "x"}}}, ".git"},
		{"git dir case", Change{Files: []File{{Path: "sub/.GIT/config", Content: "x"}}}, ".git"},
		{"symlink", Change{Files: []File{{Path: "etc/passwd", Content: "x"}}}, "symbolic link"},
		{"binary", Change{Files: []File{{Path: "a.bin", Content: "a\x00b"}}}, "binary"},
		{"not utf8", Change{Files: []File{{Path: "a.bin", Content: "\xff\xfe"}}}, "binary"},
		{"empty", Change{}, "files or a patch"},
		{"both", Change{Files: []File{{Path: "a", Content: "x"}}, Patch: "x"}, "files or a patch"},
		{"duplicate", Change{Files: []File{{Path: "a", Content: "x"}, {Path: "./a", Content: "y"}}}, "twice"},
		{"patch dotdot", Change{Patch: "--- a/../x\n+++ b/../x\n@@ -0,0 +1 @@\n+x\n"}, ".."},
		{"patch git dir", Change{Patch: "--- /dev/null\n+++ b/.git/config\n@@ -0,0 +1 @@\n+x\n"}, ".git"},
		{"patch binary", Change{Patch: "diff --git a/x.bin b/x.bin\nnew file mode 100644\nindex 0000000..1111111\nGIT binary patch\nliteral 1\nIcmZpY0000l00961\n\nliteral 0\nHcmV?d00001\n\n"}, "binary"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Apply(context.Background(), repo, "prop_bad", "Bad", tc.c)
			if !errors.Is(err, ErrRefused) {
				t.Fatalf("err = %v, want ErrRefused", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %q, want it to say %q", err, tc.want)
			}
			if b := branches(t, repo); b != "" {
				t.Fatalf("branch left behind: %q", b)
			}
		})
	}
	// "../x" in a patch would land beside the repository.
	if b, err := os.ReadFile(filepath.Join(filepath.Dir(repo), "x")); err == nil && strings.TrimSpace(string(b)) == "x" {
		t.Fatalf("wrote outside the repository")
	}
}

func TestNotARepository(t *testing.T) {
	_, err := Apply(context.Background(), t.TempDir(), "prop_4", "x", Change{Files: []File{{Path: "a", Content: "x"}}})
	if err == nil || !strings.Contains(err.Error(), "not a git repository") {
		t.Fatalf("err = %v", err)
	}
}
