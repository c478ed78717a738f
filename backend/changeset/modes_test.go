package changeset

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// modePatches give a path a mode the files path cannot: a symbolic link
// out of the repository, a submodule entry, an executable bit.
var modePatches = []struct {
	name, path, patch, want string
}{
	{"symlink", "evil", "diff --git a/evil b/evil\nnew file mode 120000\nindex 0000000..8d5f4e3\n--- /dev/null\n+++ b/evil\n@@ -0,0 +1 @@\n+/etc/passwd\n\\ No newline at end of file\n", "symbolic link"},
	{"gitlink", "sub", "diff --git a/sub b/sub\nnew file mode 160000\nindex 0000000..1234567\n--- /dev/null\n+++ b/sub\n@@ -0,0 +1 @@\n+Subproject commit 1234567890123456789012345678901234567890\n", "submodule"},
	{"executable", "run.sh", "diff --git a/run.sh b/run.sh\nnew file mode 100755\nindex 0000000..0d3f7a6\n--- /dev/null\n+++ b/run.sh\n@@ -0,0 +1 @@\n+echo hi\n", "executable"},
	{"made executable", "src/app.txt", "diff --git a/src/app.txt b/src/app.txt\nold mode 100644\nnew mode 100755\nindex 0000000..1111111\n--- a/src/app.txt\n+++ b/src/app.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n", "executable"},
}

// A patch may not add a symbolic link, a submodule or an executable bit:
// it is refused, naming the path, when proposed (Validate) and again when
// approved, and no branch is made.
func TestPatchModesAreRefused(t *testing.T) {
	for _, tc := range modePatches {
		t.Run(tc.name, func(t *testing.T) {
			repo := newRepo(t)
			_, err := Change{Patch: tc.patch}.Validate()
			if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), `"`+tc.path+`"`) {
				t.Fatalf("Validate: %v, want a refusal naming %q and saying %q", err, tc.path, tc.want)
			}
			_, err = Apply(context.Background(), repo, "prop_mode", "Mode", Change{Patch: tc.patch})
			if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), `"`+tc.path+`"`) {
				t.Fatalf("Apply: %v, want a refusal naming %q", err, tc.path)
			}
			if b := branches(t, repo); b != "" {
				t.Fatalf("branch left behind: %q", b)
			}
		})
	}
}

// The check of the index git built catches the modes however the patch
// spells them, not only in the headers Validate reads.
func TestIndexModesAreRefusedAfterApplying(t *testing.T) {
	for _, tc := range modePatches {
		t.Run(tc.name, func(t *testing.T) {
			repo := newRepo(t)
			head := git(t, repo, "rev-parse", "HEAD")
			tmp := t.TempDir()
			ix := index{repo: repo, tmp: tmp, env: []string{"GIT_INDEX_FILE=" + filepath.Join(tmp, "index")}}
			_, err := ix.commit(context.Background(), head, "Mode", "prop_mode", Change{Patch: tc.patch})
			if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), `"`+tc.path+`"`) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("commit without Validate: %v, want a refusal naming %q and saying %q", err, tc.path, tc.want)
			}
		})
	}
}

// Changing an executable file the repository already has keeps it
// executable and is allowed.
func TestPatchOfExistingExecutableIsAllowed(t *testing.T) {
	repo := newRepo(t)
	write(t, filepath.Join(repo, "run.sh"), "echo one\n")
	if err := os.Chmod(filepath.Join(repo, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "add", "--chmod=+x", "run.sh")
	git(t, repo, "commit", "-q", "-m", "script")
	patch := "diff --git a/run.sh b/run.sh\nindex 0000000..1111111 100755\n--- a/run.sh\n+++ b/run.sh\n@@ -1 +1 @@\n-echo one\n+echo two\n"
	res, err := Apply(context.Background(), repo, "prop_exec", "Two", Change{Patch: patch})
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if ls := git(t, repo, "ls-tree", res.Branch, "--", "run.sh"); !strings.HasPrefix(ls, "100755 ") {
		t.Fatalf("run.sh on the branch: %s", ls)
	}
}
