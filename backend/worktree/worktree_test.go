package worktree

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var ctx = context.Background()

func gitEnv(t *testing.T) []string {
	t.Helper()
	return append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL="+os.DevNull)
}

func run(t *testing.T, env []string, dir string, args ...string) string {
	t.Helper()
	out, err := Git(ctx, env, dir, args...)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(out)
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// newRepo makes <tmp>/shop with one commit on main: app.js tracked, .env
// ignored (the kind of file a worktree needs copied).
func newRepo(t *testing.T) (string, []string) {
	t.Helper()
	env := gitEnv(t)
	repo := filepath.Join(t.TempDir(), "shop")
	write(t, filepath.Join(repo, "app.js"), "one\ntwo\nthree\n")
	write(t, filepath.Join(repo, ".gitignore"), ".env\nlocal/\n")
	run(t, env, filepath.Dir(repo), "init", "-q", "-b", "main", repo)
	run(t, env, repo, "add", "-A")
	run(t, env, repo, "commit", "-q", "-m", "first")
	write(t, filepath.Join(repo, ".env"), "SECRET=1\n")
	write(t, filepath.Join(repo, "local", "dev.json"), "{}\n")
	return repo, env
}

func exists(p string) bool { _, err := os.Lstat(p); return err == nil }

// noLeftovers fails when a refused Create left a worktree, its folder or
// its branch.
func noLeftovers(t *testing.T, env []string, repo, name string) {
	t.Helper()
	if exists(Folder(repo, name)) {
		t.Errorf("worktree folder %s left behind", Folder(repo, name))
	}
	if out := run(t, env, repo, "worktree", "list", "--porcelain"); strings.Count(out, "worktree ") != 1 {
		t.Errorf("worktrees left registered:\n%s", out)
	}
}

func TestCreateMakesBranchOutsideTheRepositoryWithFilesCopied(t *testing.T) {
	repo, env := newRepo(t)
	headBefore := run(t, env, repo, "rev-parse", "HEAD")
	tr, err := Create(ctx, Request{Repo: repo, Name: "fix-login", Env: env}, Config{Copy: []string{".env", "local"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(filepath.Dir(repo), "shop.osf-worktrees", "fix-login"); tr.Dir != want {
		t.Errorf("Dir = %s, want %s", tr.Dir, want)
	}
	if tr.Branch != "osf/fix-login" || tr.Base != "main" || tr.BaseCommit != headBefore {
		t.Errorf("tree = %+v, want osf/fix-login from main at %s", tr, headBefore)
	}
	if got := run(t, env, tr.Dir, "symbolic-ref", "--short", "HEAD"); got != "osf/fix-login" {
		t.Errorf("worktree on %q", got)
	}
	for _, f := range []string{"app.js", ".env", "local/dev.json"} {
		if !exists(filepath.Join(tr.Dir, f)) {
			t.Errorf("%s missing from the worktree", f)
		}
	}
	if strings.Join(tr.Copied, ",") != ".env,local/dev.json" {
		t.Errorf("Copied = %v", tr.Copied)
	}
	if got := run(t, env, repo, "symbolic-ref", "--short", "HEAD"); got != "main" {
		t.Errorf("the person's checkout moved to %q", got)
	}
	if st := run(t, env, repo, "status", "--porcelain"); st != "" {
		t.Errorf("the person's checkout changed:\n%s", st)
	}
	if len(tr.Notes) != 0 {
		t.Errorf("Notes = %v, want none for a clean base", tr.Notes)
	}
}

func TestCreateFromAPickedBase(t *testing.T) {
	repo, env := newRepo(t)
	run(t, env, repo, "checkout", "-q", "-b", "develop")
	write(t, filepath.Join(repo, "dev.txt"), "d\n")
	run(t, env, repo, "add", "dev.txt")
	run(t, env, repo, "commit", "-q", "-m", "dev")
	tr, err := Create(ctx, Request{Repo: repo, Name: "from-main", Base: "main", Env: env}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if exists(filepath.Join(tr.Dir, "dev.txt")) || tr.Base != "main" {
		t.Errorf("the branch did not start from main: %+v", tr)
	}
	br, _ := Branches(ctx, env, repo)
	if len(br) < 2 || br[0] != "develop" {
		t.Errorf("Branches = %v, want the current branch first", br)
	}
}

func TestCreateRefusesBadInputAndLeavesNothing(t *testing.T) {
	cases := []struct {
		name    string
		prepare func(t *testing.T, repo string, env []string) Request
		cfg     Config
		want    error
		words   string
	}{
		{"not a repository", func(t *testing.T, repo string, env []string) Request {
			return Request{Repo: t.TempDir(), Name: "x", Env: env}
		}, Config{}, ErrNotRepository, "git init"},
		{"detached head", func(t *testing.T, repo string, env []string) Request {
			run(t, env, repo, "checkout", "-q", "--detach")
			return Request{Repo: repo, Name: "x", Env: env}
		}, Config{}, ErrDetached, "pick the base branch"},
		{"no commits yet", func(t *testing.T, repo string, env []string) Request {
			empty := filepath.Join(t.TempDir(), "empty")
			run(t, env, filepath.Dir(empty), "init", "-q", empty)
			return Request{Repo: empty, Name: "x", Env: env}
		}, Config{}, ErrNoCommits, "commit once"},
		{"branch exists", func(t *testing.T, repo string, env []string) Request {
			run(t, env, repo, "branch", "osf/x")
			return Request{Repo: repo, Name: "x", Env: env}
		}, Config{}, ErrBranchExists, "pick another name"},
		{"no such base", func(t *testing.T, repo string, env []string) Request {
			return Request{Repo: repo, Name: "x", Base: "nope", Env: env}
		}, Config{}, ErrNoBase, "pick one of its branches"},
		{"name with spaces", func(t *testing.T, repo string, env []string) Request {
			return Request{Repo: repo, Name: "fix the login", Env: env}
		}, Config{}, ErrBadName, "fix-the-login"},
		{"name with ..", func(t *testing.T, repo string, env []string) Request {
			return Request{Repo: repo, Name: "a..b", Env: env}
		}, Config{}, ErrBadName, `".."`},
		{"name with a slash", func(t *testing.T, repo string, env []string) Request {
			return Request{Repo: repo, Name: "../../etc", Env: env}
		}, Config{}, ErrBadName, "not allowed"},
		{"copy glob escapes", func(t *testing.T, repo string, env []string) Request {
			return Request{Repo: repo, Name: "x", Env: env}
		}, Config{Copy: []string{"../*"}}, ErrEscapes, "only files of the repository"},
		{"absolute copy path", func(t *testing.T, repo string, env []string) Request {
			return Request{Repo: repo, Name: "x", Env: env}
		}, Config{Copy: []string{"/etc/passwd"}}, ErrEscapes, "inside the repository"},
		{"copy through a link that escapes", func(t *testing.T, repo string, env []string) Request {
			outside := filepath.Join(t.TempDir(), "secret")
			write(t, outside, "s\n")
			if err := os.Symlink(outside, filepath.Join(repo, "local", "link")); err != nil {
				t.Skip(err)
			}
			return Request{Repo: repo, Name: "x", Env: env}
		}, Config{Copy: []string{"local"}}, ErrEscapes, "set-up command"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			repo, env := newRepo(t)
			req := c.prepare(t, repo, env)
			branchesBefore := run(t, env, repo, "branch", "--list")
			tr, err := Create(ctx, req, c.cfg)
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.words) {
				t.Fatalf("Create = %v, %v; want %v saying %q", tr, err, c.want, c.words)
			}
			if got := run(t, env, repo, "branch", "--list"); got != branchesBefore {
				t.Errorf("branches changed:\n%s\nwas:\n%s", got, branchesBefore)
			}
			noLeftovers(t, env, repo, "x")
			if exists(filepath.Join(filepath.Dir(repo), "shop"+FolderSuffix)) {
				t.Errorf("empty worktrees folder left behind")
			}
		})
	}
}

func TestCreateNotesDirtySubmodulesAndLFS(t *testing.T) {
	repo, env := newRepo(t)
	write(t, filepath.Join(repo, ".gitmodules"), "[submodule \"lib\"]\n\tpath = lib\n\turl = ../lib\n")
	write(t, filepath.Join(repo, ".gitattributes"), "*.bin filter=lfs diff=lfs merge=lfs -text\n")
	run(t, env, repo, "add", ".gitmodules", ".gitattributes")
	run(t, env, repo, "commit", "-q", "-m", "modules")
	write(t, filepath.Join(repo, "app.js"), "changed\n") // dirty base
	tr, err := Create(ctx, Request{Repo: repo, Name: "notes", Env: env}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(tr.Notes, "\n")
	for _, w := range []string{"uncommitted changes: the new branch starts from its last commit", "Submodules are not checked out", "LFS"} {
		if !strings.Contains(all, w) {
			t.Errorf("Notes lack %q:\n%s", w, all)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(tr.Dir, "app.js")); string(b) != "one\ntwo\nthree\n" {
		t.Errorf("the worktree got the uncommitted change: %q", b)
	}
}

// A repository whose LFS filter is required cannot be checked out without
// git-lfs: Create says to install it and leaves nothing behind.
func TestCreateWithoutGitLFSSaysSoAndLeavesNothing(t *testing.T) {
	repo, env := newRepo(t)
	env = append(env, "PATH="+filepath.Dir(gitPath(t))) // git, and no git-lfs
	write(t, filepath.Join(repo, ".gitattributes"), "*.bin filter=lfs\n")
	write(t, filepath.Join(repo, "big.bin"), "version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 3\n")
	run(t, env, repo, "add", ".gitattributes", "big.bin")
	run(t, env, repo, "commit", "-q", "-m", "lfs")
	// What `git lfs install` leaves in a clone, with git-lfs gone since.
	run(t, env, repo, "config", "filter.lfs.required", "true")
	run(t, env, repo, "config", "filter.lfs.smudge", "git-lfs smudge -- %f")
	before := run(t, env, repo, "branch", "--list")
	_, err := Create(ctx, Request{Repo: repo, Name: "x", Env: env}, Config{})
	if !errors.Is(err, ErrNeedsLFS) || !strings.Contains(err.Error(), "install git-lfs") {
		t.Fatalf("Create = %v, want it to say git-lfs is needed", err)
	}
	if got := run(t, env, repo, "branch", "--list"); got != before {
		t.Errorf("branches changed: %q", got)
	}
	noLeftovers(t, env, repo, "x")
}

func gitPath(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("git")
	if err != nil {
		t.Skip(err)
	}
	if lfs, err := exec.LookPath("git-lfs"); err == nil && filepath.Dir(lfs) == filepath.Dir(p) {
		t.Skip("git-lfs sits beside git here")
	}
	return p
}

func TestUnicodeNameWorks(t *testing.T) {
	repo, env := newRepo(t)
	tr, err := Create(ctx, Request{Repo: repo, Name: "café-修正", Env: env}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Branch != "osf/café-修正" || filepath.Base(tr.Dir) != "café-修正" {
		t.Errorf("tree = %+v", tr)
	}
}

func TestTwoWorktreesNeverTouchEachOtherOrTheCheckout(t *testing.T) {
	repo, env := newRepo(t)
	a, err := Create(ctx, Request{Repo: repo, Name: "a", Env: env}, Config{Copy: []string{".env"}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Create(ctx, Request{Repo: repo, Name: "b", Env: env}, Config{Copy: []string{".env"}})
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(a.Dir, "new.txt"), "x\ny\n")
	write(t, filepath.Join(a.Dir, "app.js"), "one\nTWO\nthree\nfour\n")
	write(t, filepath.Join(a.Dir, ".env"), "SECRET=a\n")
	write(t, filepath.Join(b.Dir, "other.txt"), "z\n")
	if exists(filepath.Join(b.Dir, "new.txt")) || exists(filepath.Join(repo, "new.txt")) || exists(filepath.Join(a.Dir, "other.txt")) {
		t.Error("a file written in one worktree shows in another")
	}
	if got, _ := os.ReadFile(filepath.Join(b.Dir, ".env")); string(got) != "SECRET=1\n" {
		t.Errorf("b's .env = %q", got)
	}
	if got, _ := os.ReadFile(filepath.Join(repo, ".env")); string(got) != "SECRET=1\n" {
		t.Errorf("the checkout's .env = %q", got)
	}
	sa, err := Diff(ctx, env, a.Dir, a.BaseCommit)
	if err != nil {
		t.Fatal(err)
	}
	// app.js: +TWO +four −two; new.txt: +2 (the ignored .env not counted).
	if sa != (Stat{Added: 4, Removed: 1, Files: 2}) {
		t.Errorf("a's diff = %+v, want +4 −1 in 2 files", sa)
	}
	run(t, env, a.Dir, "add", "-A")
	run(t, env, a.Dir, "commit", "-q", "-m", "work")
	if sa2, _ := Diff(ctx, env, a.Dir, a.BaseCommit); sa2 != sa {
		t.Errorf("after a commit the diff = %+v, want %+v (committed work counts)", sa2, sa)
	}
	if sb, _ := Diff(ctx, env, b.Dir, b.BaseCommit); sb != (Stat{Added: 1, Files: 1}) {
		t.Errorf("b's diff = %+v, want +1", sb)
	}
	if st := run(t, env, repo, "status", "--porcelain"); st != "" {
		t.Errorf("the person's checkout changed:\n%s", st)
	}
}

func TestRunSetupOutputFailureAndLimit(t *testing.T) {
	dir := t.TempDir()
	env := os.Environ()
	var out bytes.Buffer
	if err := RunSetup(ctx, "echo installing; echo done > marker", dir, env, time.Minute, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "installing") || !exists(filepath.Join(dir, "marker")) {
		t.Errorf("output %q; the command did not run in the worktree", out.String())
	}
	err := RunSetup(ctx, "echo oops >&2; exit 3", dir, env, time.Minute, &out)
	if !errors.Is(err, ErrSetupFailed) || !strings.Contains(err.Error(), "exit 3") || !strings.Contains(out.String(), "oops") {
		t.Errorf("failing set-up: %v, output %q", err, out.String())
	}
	err = RunSetup(ctx, "sleep 600 & sleep 600", dir, env, time.Second, &out)
	if !errors.Is(err, ErrSetupStopped) || !strings.Contains(err.Error(), "1s") {
		t.Errorf("hung set-up: %v, want stopped at its limit", err)
	}
}

func TestPortOffsetsAreDistinctAmongLiveWorktrees(t *testing.T) {
	var p Ports
	a, b, c := p.Take("a"), p.Take("b"), p.Take("c")
	if a == b || b == c || a == c || a == 0 {
		t.Fatalf("offsets %d %d %d", a, b, c)
	}
	if p.Take("a") != a {
		t.Error("a pane's offset changed")
	}
	p.Release("b")
	if d := p.Take("d"); d != b {
		t.Errorf("freed offset not reused: %d", d)
	}
	if p.Hold("e", a) {
		t.Error("Hold gave e an offset a holds")
	}
}

func TestMergeRepositoryFileWinsPerKey(t *testing.T) {
	top := t.TempDir()
	write(t, filepath.Join(top, ".osfoundry", "worktree.toml"), "setup = \"npm ci\"\n")
	e := Merge(top, Config{Copy: []string{".env"}, Setup: "make"})
	if e.Config.Setup != "npm ci" || e.Sources.Setup != "repository" || strings.Join(e.Config.Copy, ",") != ".env" || e.Sources.Copy != "personal" {
		t.Errorf("Merge = %+v", e)
	}
	write(t, filepath.Join(top, ".osfoundry", "worktree.toml"), "setup = [\n")
	if e := Merge(top, Config{Setup: "make"}); e.Problem == "" || e.Config.Setup != "make" {
		t.Errorf("broken file: %+v", e)
	}
}
