package worktree

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/osfoundry/desktop/backend/shellenv"
)

// BranchPrefix names every pane branch.
const BranchPrefix = "osf/"

// FolderSuffix names the folder beside the repository that holds its pane
// worktrees: ~/src/shop → ~/src/shop.osf-worktrees/<name>. Beside, not
// inside, so the repository's own tools (watchers, test runners, search)
// never see a second copy of it; named after it, so it is easy to find.
const FolderSuffix = ".osf-worktrees"

// Errors callers branch on; each is wrapped in a message that says what to
// do.
var (
	ErrNotRepository = errors.New("not a git repository")
	ErrNoCommits     = errors.New("the repository has no commits yet")
	ErrDetached      = errors.New("the repository is on a detached HEAD")
	ErrNoBase        = errors.New("no such base branch")
	ErrBranchExists  = errors.New("the branch already exists")
	ErrFolderExists  = errors.New("the worktree folder already exists")
	ErrBadName       = errors.New("not a usable branch name")
	ErrNeedsLFS      = errors.New("git-lfs is missing")
)

// Request is a new pane branch to make.
type Request struct {
	Repo string   // any folder inside the repository
	Name string   // the branch is osf/<Name>, the folder <repo>.osf-worktrees/<Name>
	Base string   // the base branch; "" is the repository's current branch
	Env  []string // git's environment (its PATH is the login shell's)
}

// Tree is a pane's worktree.
type Tree struct {
	Repo       string   `json:"repo"`       // the repository's top folder
	Dir        string   `json:"dir"`        // the worktree folder
	Branch     string   `json:"branch"`     // osf/<name>
	Base       string   `json:"base"`       // the base branch
	BaseCommit string   `json:"baseCommit"` // the commit the branch starts from
	Copied     []string `json:"copied"`     // files copied in, relative to the worktree
	// Notes say what the person should know about the new worktree: a
	// dirty checkout left behind, submodules not checked out, LFS.
	Notes []string `json:"notes"`
}

// Folder is where the worktree for name of the repository whose top folder
// is top goes.
func Folder(top, name string) string {
	return filepath.Join(filepath.Dir(top), filepath.Base(top)+FolderSuffix, name)
}

// CheckName refuses a name git or the folder cannot carry, saying why.
// Letters of any script are fine; spaces, "..", slashes and git's special
// characters are not.
func CheckName(name string) error {
	bad := func(why string) error { return fmt.Errorf("%q %w: %s", name, ErrBadName, why) }
	switch {
	case strings.TrimSpace(name) == "":
		return bad("give the branch a name, e.g. fix-login")
	case strings.ContainsFunc(name, unicode.IsSpace):
		return bad("names cannot hold spaces — use dashes, e.g. " + strings.Join(strings.Fields(name), "-"))
	case strings.Contains(name, ".."):
		return bad(`".." is not allowed in a branch name`)
	case strings.ContainsAny(name, `/\~^:?*[`) || strings.Contains(name, "@{") || name == "@":
		return bad(`use letters, digits, "-", "_" and "." only (no / \ ~ ^ : ? * [ or @{)`)
	case strings.HasPrefix(name, "-") || strings.HasPrefix(name, "."):
		return bad(`a name cannot start with "-" or "."`)
	case strings.HasSuffix(name, ".") || strings.HasSuffix(name, ".lock"):
		return bad(`a name cannot end with "." or ".lock"`)
	case strings.ContainsFunc(name, unicode.IsControl):
		return bad("control characters are not allowed")
	case len(name) > 100:
		return bad("keep it under 100 characters")
	}
	return nil
}

// Top returns the top folder of the repository dir is in.
func Top(ctx context.Context, env []string, dir string) (string, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return "", fmt.Errorf("%s is not a folder that exists — choose the repository's folder", dir)
	}
	top, err := Git(ctx, env, dir, "rev-parse", "--show-toplevel")
	if errors.Is(err, shellenv.ErrProgramMissing) {
		return "", fmt.Errorf("a pane on a new branch needs git: %w", err)
	}
	top = strings.TrimSpace(top)
	if err != nil || top == "" {
		return "", fmt.Errorf("%s is %w — a pane on a new branch needs one: run `git init` there and commit once, or start the pane without a new branch", dir, ErrNotRepository)
	}
	return filepath.FromSlash(top), nil
}

// CurrentBranch is the branch the repository's checkout is on;
// ErrDetached when it is on no branch.
func CurrentBranch(ctx context.Context, env []string, top string) (string, error) {
	b, err := Git(ctx, env, top, "symbolic-ref", "--quiet", "--short", "HEAD")
	if err != nil {
		head, _ := Git(ctx, env, top, "rev-parse", "--short", "HEAD")
		return "", fmt.Errorf("%w (at %s) — pick the base branch the new branch starts from", ErrDetached, strings.TrimSpace(head))
	}
	return strings.TrimSpace(b), nil
}

// Branches lists the repository's local branches, the current one first.
func Branches(ctx context.Context, env []string, dir string) ([]string, error) {
	top, err := Top(ctx, env, dir)
	if err != nil {
		return nil, err
	}
	out, err := Git(ctx, env, top, "for-each-ref", "--format=%(refname:short)", "refs/heads/")
	if err != nil {
		return nil, fmt.Errorf("listing the branches of %s: %w", top, err)
	}
	cur, _ := CurrentBranch(ctx, env, top)
	list := []string{}
	if cur != "" {
		list = append(list, cur)
	}
	for _, b := range strings.Split(strings.TrimSpace(out), "\n") {
		if b != "" && b != cur {
			list = append(list, b)
		}
	}
	return list, nil
}

// Create makes branch osf/<name> at the base branch's last commit, checks
// it out in Folder(top, name) and copies cfg's files into it. Anything it
// made is undone when a later step fails: no worktree or branch is left
// behind by a failed Create.
func Create(ctx context.Context, req Request, cfg Config) (*Tree, error) {
	if err := CheckName(req.Name); err != nil {
		return nil, err
	}
	for _, p := range cfg.Copy {
		if err := CheckPattern(p); err != nil {
			return nil, err
		}
	}
	top, err := Top(ctx, req.Env, req.Repo)
	if err != nil {
		return nil, err
	}
	heads, cur, err := headsOf(ctx, req.Env, top)
	if err != nil {
		return nil, err
	}
	if len(heads) == 0 {
		return nil, fmt.Errorf("%s: %w, so a new branch has nothing to start from — commit once and try again", top, ErrNoCommits)
	}
	base := strings.TrimSpace(req.Base)
	if base == "" {
		if cur == "" {
			_, err := CurrentBranch(ctx, req.Env, top) // says where HEAD is
			return nil, err
		}
		base = cur
	}
	commit, ok := heads[base]
	if !ok {
		return nil, fmt.Errorf("%q: %w in %s — pick one of its branches", base, ErrNoBase, top)
	}
	t := &Tree{Repo: top, Dir: Folder(top, req.Name), Branch: BranchPrefix + req.Name, Base: base, BaseCommit: commit, Copied: []string{}, Notes: []string{}}
	if _, ok := heads[t.Branch]; ok {
		return nil, fmt.Errorf("%s: %w — pick another name, or delete that branch first", t.Branch, ErrBranchExists)
	}
	if _, err := os.Lstat(t.Dir); err == nil {
		return nil, fmt.Errorf("%s: %w — pick another name, or move that folder away", t.Dir, ErrFolderExists)
	}
	if err := os.MkdirAll(filepath.Dir(t.Dir), 0o755); err != nil {
		return nil, fmt.Errorf("making the worktrees folder %s: %w", filepath.Dir(t.Dir), err)
	}
	// Whether the checkout has uncommitted work is read while the worktree
	// is checked out (a pane's start waits for both, not one after the
	// other); --no-optional-locks keeps it off the index lock.
	dirty := make(chan bool, 1)
	go func() {
		st, err := Git(ctx, req.Env, top, "--no-optional-locks", "status", "--porcelain", "--untracked-files=no")
		dirty <- cur == base && err == nil && strings.TrimSpace(st) != ""
	}()
	// checkout.workers=0 writes the files with one worker per core (git ≥
	// 2.32; older gits ignore it): on a 10,000-file repository the checkout
	// is most of a new pane's wait, and it is bound by file creation.
	if _, err := Git(ctx, req.Env, top, "-c", "checkout.workers=0", "worktree", "add", "-q", "-b", t.Branch, t.Dir, t.BaseCommit); err != nil {
		<-dirty
		undo(req.Env, t)
		if strings.Contains(err.Error(), "git-lfs") || strings.Contains(err.Error(), "filter lfs") {
			return nil, fmt.Errorf("%w: this repository needs Git LFS to check out its files — install git-lfs, run `git lfs install`, and try again; nothing was created (%v)", ErrNeedsLFS, err)
		}
		return nil, fmt.Errorf("creating the worktree %s: %w", t.Dir, err)
	}
	if t.Copied, err = CopyFiles(top, t.Dir, cfg.Copy); err != nil {
		<-dirty
		undo(req.Env, t)
		return nil, err
	}
	t.Notes = notes(req.Env, t, <-dirty)
	return t, nil
}

// headsOf lists the repository's local branches with their commits, and
// the branch its checkout is on ("" when detached), in one git call.
func headsOf(ctx context.Context, env []string, top string) (map[string]string, string, error) {
	out, err := Git(ctx, env, top, "for-each-ref", "--format=%(HEAD)%00%(objectname)%00%(refname)", "refs/heads/")
	if err != nil {
		return nil, "", fmt.Errorf("reading the branches of %s: %w", top, err)
	}
	heads, cur := map[string]string{}, ""
	for _, line := range strings.Split(out, "\n") {
		f := strings.SplitN(line, "\x00", 3)
		if len(f) != 3 {
			continue
		}
		name := strings.TrimPrefix(f[2], "refs/heads/")
		heads[name] = f[1]
		if f[0] == "*" {
			cur = name
		}
	}
	return heads, cur, nil
}

// notes says what differs from a plain checkout of the base.
func notes(env []string, t *Tree, dirty bool) []string {
	out := []string{}
	if dirty {
		out = append(out, "Your checkout of "+t.Base+" has uncommitted changes: the new branch starts from its last commit, without them.")
	}
	if _, err := os.Stat(filepath.Join(t.Dir, ".gitmodules")); err == nil {
		out = append(out, "Submodules are not checked out in the new worktree: add `git submodule update --init` to the set-up command if the agent needs them.")
	}
	if b, err := os.ReadFile(filepath.Join(t.Dir, ".gitattributes")); err == nil && strings.Contains(string(b), "filter=lfs") {
		if _, err := shellenv.LookPathIn("git-lfs", env); err == nil {
			out = append(out, "LFS files were checked out by git-lfs.")
		} else {
			out = append(out, "This repository uses Git LFS but git-lfs is not installed: LFS files are pointer files in the new worktree.")
		}
	}
	return out
}

// undo removes a worktree and branch Create made (best effort: each step
// runs even when an earlier one failed).
func undo(env []string, t *Tree) {
	ctx := context.Background()
	Git(ctx, env, t.Repo, "worktree", "remove", "--force", t.Dir) //nolint:errcheck // best effort, the steps below finish it
	os.RemoveAll(t.Dir)                                           //nolint:errcheck // best effort
	Git(ctx, env, t.Repo, "worktree", "prune")                    //nolint:errcheck // best effort
	Git(ctx, env, t.Repo, "branch", "-D", "--", t.Branch)         //nolint:errcheck // the branch may not exist yet
	os.Remove(filepath.Dir(t.Dir))                                //nolint:errcheck // only when empty
}

// Discard removes a worktree and branch Create made that nothing used yet
// (the pane meant for it did not start).
func Discard(env []string, t *Tree) { undo(env, t) }
