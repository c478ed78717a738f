//go:build !windows

package changeset

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The crash test runs Apply in a child process (this test binary again)
// whose `git` is a shim: at the chosen git command the shim leaves a marker
// and waits, and the test kills the whole process group with SIGKILL — the
// app dying in the middle of an approval.
const crashEnv = "OSF_CHANGESET_CRASH_REPO"

var crashChange = Change{Files: []File{
	{Path: "docs/refunds.md", Content: "# Refunds\n"},
	{Path: "src/app.txt", Content: "one\n2\nthree\n"},
}}

func TestApplyCrashHelper(t *testing.T) {
	repo := os.Getenv(crashEnv)
	if repo == "" {
		t.Skip("helper process only")
	}
	_, err := Apply(context.Background(), repo, "prop_crash", "Add refunds page", crashChange)
	fmt.Println("finished", err)
	os.Exit(0)
}

const gitShim = `#!/bin/sh
case " $* " in
*" $OSF_KILL_AT "*) : > "$OSF_MARKER"; sleep 120 ;;
esac
exec "$OSF_REAL_GIT" "$@"
`

// checkout is everything of the person's repository an approval must not touch.
type checkout struct{ head, branch, status, index, readme, untracked string }

func readCheckout(t *testing.T, repo string) checkout {
	t.Helper()
	return checkout{
		head:      git(t, repo, "rev-parse", "HEAD"),
		branch:    git(t, repo, "rev-parse", "--abbrev-ref", "HEAD"),
		status:    git(t, repo, "status", "--porcelain", "-uall"),
		index:     git(t, repo, "ls-files", "-s"),
		readme:    read(t, filepath.Join(repo, "README.md")),
		untracked: read(t, filepath.Join(repo, "notes.txt")),
	}
}

// leftovers lists the worktrees besides the repository's own.
func leftovers(t *testing.T, repo string) []string {
	var out []string
	for _, l := range strings.Split(git(t, repo, "worktree", "list", "--porcelain"), "\n") {
		if p, ok := strings.CutPrefix(l, "worktree "); ok && p != repo {
			out = append(out, p)
		}
	}
	return out
}

// TestApplyKilledMidwayLeavesCheckoutAndAllOrNothing kills the approving
// process before each git command Apply runs. After each kill: the person's
// checkout and uncommitted work are byte-identical; the proposal's branch is
// absent or holds the complete commit; and approving again (what the owner
// does after the restart) commits the change once, removes the killed run's
// temporary folder, and leaves no worktree.
func TestApplyKilledMidwayLeavesCheckoutAndAllOrNothing(t *testing.T) {
	realGit, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	shimDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(shimDir, "git"), []byte(gitShim), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, at := range []string{
		"read-tree",      // the private index is being made
		"hash-object",    // blobs being stored
		"update-index",   // the index being changed
		"diff-index",     // the change checked
		"write-tree",     // the tree being written
		"commit-tree",    // the commit being made
		"update-ref",     // (where the branch is made from the commit)
		"show --format=", // the branch made, the commit read back
	} {
		t.Run(strings.ReplaceAll(at, " ", "_"), func(t *testing.T) {
			repo := newRepo(t)
			repo, _ = filepath.EvalSymlinks(repo)
			before := readCheckout(t, repo)
			childTmp := t.TempDir()
			marker := filepath.Join(t.TempDir(), "at")
			cmd := exec.Command(os.Args[0], "-test.run=^TestApplyCrashHelper$")
			cmd.Env = append(os.Environ(), crashEnv+"="+repo, "OSF_KILL_AT="+at, "OSF_MARKER="+marker,
				"OSF_REAL_GIT="+realGit, "PATH="+shimDir+string(os.PathListSeparator)+os.Getenv("PATH"), "TMPDIR="+childTmp)
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			out := &strings.Builder{}
			cmd.Stdout, cmd.Stderr = out, out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan struct{})
			go func() { cmd.Wait(); close(done) }()
			reached := false
			for end := time.Now().Add(60 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
				if _, err := os.Stat(marker); err == nil {
					reached = true
					break
				}
				select {
				case <-done:
					end = time.Time{}
				default:
				}
			}
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
			if !reached {
				if at == "update-ref" {
					t.Logf("Apply runs no %q: %s", at, out)
				} else {
					t.Fatalf("Apply never ran git %s: %s", at, out)
				}
			}

			if got := readCheckout(t, repo); got != before {
				t.Fatalf("after SIGKILL at git %s the checkout changed:\n%+v\nwas\n%+v", at, got, before)
			}
			branch := BranchPrefix + "prop_crash"
			if b := branches(t, repo); b != "" {
				if n := git(t, repo, "rev-list", "--count", before.head+".."+branch); n != "1" || git(t, repo, "rev-parse", branch+"~1") != before.head {
					t.Fatalf("after SIGKILL at git %s branch %s exists without the proposal's commit (%s commits on top of HEAD)", at, branch, n)
				}
				if got := git(t, repo, "show", branch+":docs/refunds.md"); got != "# Refunds" {
					t.Fatalf("after SIGKILL at git %s the branch holds a partial commit: docs/refunds.md = %q", at, got)
				}
			}
			left, _ := filepath.Glob(filepath.Join(childTmp, "*"))
			if len(left) == 0 {
				t.Fatalf("after SIGKILL at git %s the killed approval left no temporary folder; this test no longer checks its removal", at)
			}

			// The owner approves again after the restart (same temporary
			// folder, as after a restart of the app).
			t.Setenv("TMPDIR", childTmp)
			res, err := Apply(context.Background(), repo, "prop_crash", "Add refunds page", crashChange)
			if err != nil {
				t.Fatalf("approving again after SIGKILL at git %s: %v", at, err)
			}
			if res.Branch != branch || git(t, repo, "rev-parse", branch+"^") != before.head ||
				git(t, repo, "show", branch+":src/app.txt") != "one\n2\nthree" || git(t, repo, "rev-list", "--count", before.head+".."+branch) != "1" {
				t.Fatalf("approving again after SIGKILL at git %s: branch %s is not the one complete commit on HEAD", at, res.Branch)
			}
			if res.Commit != git(t, repo, "rev-parse", branch) || !strings.Contains(res.Diff, "+# Refunds") {
				t.Fatalf("approving again after SIGKILL at git %s: result %s / %q does not describe the branch", at, res.Commit, res.Diff)
			}
			if got := readCheckout(t, repo); got != before {
				t.Fatalf("approving again changed the checkout:\n%+v\nwas\n%+v", got, before)
			}
			if l := leftovers(t, repo); len(l) != 0 {
				t.Fatalf("after SIGKILL at git %s and a new approval, worktrees are left: %v", at, l)
			}
			for _, dir := range left {
				if _, err := os.Stat(dir); !os.IsNotExist(err) {
					t.Fatalf("the killed approval's folder %s is still there (%v)", dir, err)
				}
			}
		})
	}
}
