//go:build !windows

package changeset

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hookNames are the hooks git runs around checkouts, index writes, commits
// and ref updates; pre-commit and commit-msg are the two "--no-verify"
// skips.
var hookNames = []string{"post-checkout", "prepare-commit-msg", "post-commit", "reference-transaction",
	"post-index-change", "pre-commit", "commit-msg", "post-rewrite", "pre-auto-gc"}

func hookScript(marker string) string {
	return "#!/bin/sh\necho \"$0\" >> '" + marker + "'\nexit 0\n"
}

func ran(t *testing.T, marker string) string {
	t.Helper()
	b, err := os.ReadFile(marker)
	if os.IsNotExist(err) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// The owner's own hooks in .git/hooks would run on the proposal's content
// (a hook that builds, lints or tests runs what the assistant wrote).
// Approving runs none of them, for files and for a patch.
func TestApplyRunsNoneOfTheOwnersHooks(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    Change
	}{
		{"files", Change{Files: []File{{Path: "src/app.txt", Content: "one\n2\nthree\n"}, {Path: "docs/new.md", Content: "new\n"}}}},
		{"patch", Change{Patch: "--- a/src/app.txt\n+++ b/src/app.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := newRepo(t)
			marker := filepath.Join(t.TempDir(), "ran")
			hooks := filepath.Join(repo, ".git", "hooks")
			for _, h := range hookNames {
				if err := os.WriteFile(filepath.Join(hooks, h), []byte(hookScript(marker)), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			// The hooks work: a commit in the checkout runs them.
			git(t, repo, "commit", "-q", "--allow-empty", "-m", "check the hooks")
			if ran(t, marker) == "" {
				t.Fatal("the installed hooks do not run on a commit; this test would check nothing")
			}
			os.Remove(marker)

			if _, err := Apply(context.Background(), repo, "prop_hooks", "Change", tc.c); err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if got := ran(t, marker); got != "" {
				t.Fatalf("approving ran the owner's hooks:\n%s", got)
			}
		})
	}
}

// A relative core.hooksPath (husky's ".husky/_") names hooks among the
// repository's own files, which a proposal can change. Approving a
// proposal that rewrites such a hook never runs it (nor the owner's).
func TestApplyRunsNoHookTheProposalSupplies(t *testing.T) {
	repo := newRepo(t)
	marker := filepath.Join(t.TempDir(), "ran")
	write(t, filepath.Join(repo, ".husky", "_", "post-commit"), "#!/bin/sh\nexit 0\n")
	write(t, filepath.Join(repo, ".husky", "_", "prepare-commit-msg"), "#!/bin/sh\nexit 0\n")
	for _, h := range []string{"post-commit", "prepare-commit-msg"} {
		if err := os.Chmod(filepath.Join(repo, ".husky", "_", h), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	git(t, repo, "config", "core.hooksPath", ".husky/_")
	git(t, repo, "add", ".husky")
	git(t, repo, "commit", "-q", "-m", "husky")
	evil := hookScript(marker)
	for _, tc := range []struct {
		name string
		c    Change
	}{
		{"files", Change{Files: []File{{Path: ".husky/_/post-commit", Content: evil}, {Path: ".husky/_/prepare-commit-msg", Content: evil}}}},
		{"patch", Change{Patch: "--- a/.husky/_/post-commit\n+++ b/.husky/_/post-commit\n@@ -1,2 +1,3 @@\n #!/bin/sh\n+echo \"$0\" >> '" + marker + "'\n exit 0\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Apply(context.Background(), repo, "prop_husky_"+tc.name, "Tidy hooks", tc.c)
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if got := ran(t, marker); got != "" {
				t.Fatalf("approving ran a hook the proposal wrote:\n%s", got)
			}
			if !strings.Contains(git(t, repo, "show", res.Branch+":.husky/_/post-commit"), marker) {
				t.Fatalf("the branch does not hold the proposed hook file")
			}
			// The hook file keeps its mode: the change set writes text only.
			if ls := git(t, repo, "ls-tree", res.Branch, "--", ".husky/_/post-commit"); !strings.HasPrefix(ls, "100755 ") {
				t.Fatalf("mode of the changed hook file: %s", ls)
			}
		})
	}
}

// Approving must not prune the owner's other worktrees: one whose folder
// is on a drive that is not plugged in stays a registered worktree.
func TestApplyKeepsTheOwnersMissingWorktree(t *testing.T) {
	repo := newRepo(t)
	other := filepath.Join(t.TempDir(), "usb", "feature")
	git(t, repo, "worktree", "add", "-q", "-b", "feature", other)
	if err := os.RemoveAll(filepath.Dir(other)); err != nil { // the drive is unplugged
		t.Fatal(err)
	}
	if _, err := Apply(context.Background(), repo, "prop_wt", "Change", Change{Files: []File{{Path: "a.txt", Content: "a\n"}}}); err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if got := git(t, repo, "worktree", "list", "--porcelain"); !strings.Contains(got, "worktree "+other) {
		t.Fatalf("approving dropped the owner's worktree %s:\n%s", other, got)
	}
}
