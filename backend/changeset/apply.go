package changeset

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/osfoundry/desktop/backend/shellenv"
)

// Author is who the commit says made it.
const (
	AuthorName  = "osFoundry"
	AuthorEmail = "osfoundry@localhost"
)

// BranchPrefix starts every branch a proposal makes.
const BranchPrefix = "osfoundry/proposal-"

// Result is an applied change set.
type Result struct {
	Branch string `json:"branch"`
	Commit string `json:"commit"`
	Diff   string `json:"diff"`
}

// Repository checks that dir is a git repository with a commit and returns
// its top folder.
func Repository(ctx context.Context, dir string) (string, error) {
	top, err := runGit(ctx, dir, nil, "rev-parse", "--show-toplevel")
	if errors.Is(err, shellenv.ErrProgramMissing) {
		return "", err // git itself is missing: "not a repository" would mislead
	}
	if err != nil {
		return "", fmt.Errorf("%s is not a git repository: run git init there or add the repository in Settings → Local Folders", dir)
	}
	top = strings.TrimSpace(top)
	if _, err := runGit(ctx, top, nil, "rev-parse", "--verify", "--quiet", "HEAD^{commit}"); err != nil {
		return "", fmt.Errorf("%s has no commit yet: commit once, then approve again", top)
	}
	return top, nil
}

// Apply validates c and commits it on a new branch BranchPrefix+id made
// from HEAD, and returns the commit with its diff. A patch that does not
// apply is ErrStale; bad input is ErrRefused. On any failure no branch is
// made.
//
// The commit is built with plumbing only, in a private index file: the
// tree HEAD points to is read into it, the change is applied to it
// (hash-object, update-index, apply --cached), and write-tree, commit-tree
// and update-ref make the commit and the branch. Nothing is checked out —
// not in the owner's checkout, not in a worktree — and no hook runs (see
// noPrograms), so neither the owner's hooks nor files of the proposal ever
// run, and the owner's other worktrees are never looked at.
//
// Apply survives being killed at any point (the app dying mid-approval):
// the branch is created from the finished commit in one step, so it either
// holds the complete commit or does not exist; what is left is at most an
// unreachable object or two and a temporary folder, which the next Apply
// removes. Approving again a proposal whose commit was made but not
// recorded returns that commit.
func Apply(ctx context.Context, dir, id, title string, c Change) (Result, error) {
	c, err := c.Validate()
	if err != nil {
		return Result{}, err
	}
	repo, err := Repository(ctx, dir)
	if err != nil {
		return Result{}, err
	}
	branch := BranchPrefix + id
	if _, err := runGit(ctx, repo, nil, "check-ref-format", "refs/heads/"+branch); err != nil {
		return Result{}, refuse("proposal id %q cannot name a branch", id)
	}
	removeAbandoned(context.WithoutCancel(ctx), repo)
	if _, err := runGit(ctx, repo, nil, "rev-parse", "--verify", "--quiet", "refs/heads/"+branch); err == nil {
		if res, ok := madeBefore(ctx, repo, branch, id); ok {
			return res, nil
		}
		return Result{}, fmt.Errorf("branch %s already exists in %s: delete it or decline this proposal", branch, repo)
	}
	head, err := runGit(ctx, repo, nil, "rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return Result{}, fmt.Errorf("reading HEAD of %s: %w", repo, err)
	}
	head = strings.TrimSpace(head)
	tmp, err := os.MkdirTemp("", tempDirPrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return Result{}, fmt.Errorf("making a folder for the approval: %w", err)
	}
	defer os.RemoveAll(tmp)
	ix := index{repo: repo, tmp: tmp, env: []string{"GIT_INDEX_FILE=" + filepath.Join(tmp, "index")}}
	sha, err := ix.commit(ctx, head, title, id, c)
	if err != nil {
		return Result{}, err
	}
	// "create" makes the branch only if no branch of that name exists, in
	// one step: never a branch without the commit.
	if _, err := runGit(ctx, repo, []byte("create refs/heads/"+branch+" "+sha+"\n"), "update-ref", "--stdin"); err != nil {
		return Result{}, fmt.Errorf("making branch %s: %w", branch, err)
	}
	res, err := described(ctx, repo, sha)
	if err != nil {
		return Result{}, err
	}
	res.Branch = branch
	return res, nil
}

// index is an approval's private index file in the repository.
type index struct {
	repo, tmp string
	env       []string
}

func (ix index) git(ctx context.Context, stdin []byte, args ...string) (string, error) {
	return runGitEnv(ctx, ix.repo, ix.env, stdin, args...)
}

// commit makes the commit of c on top of head and returns its id; no ref
// points to it yet.
func (ix index) commit(ctx context.Context, head, title, id string, c Change) (string, error) {
	if _, err := ix.git(ctx, nil, "read-tree", head); err != nil {
		return "", fmt.Errorf("reading the tree of HEAD: %w", err)
	}
	var err error
	if c.Patch != "" {
		err = ix.applyPatch(ctx, c.Patch)
	} else {
		err = ix.addFiles(ctx, head, c.Files)
	}
	if err != nil {
		return "", err
	}
	if err := ix.checkModes(ctx, head); err != nil {
		return "", err
	}
	tree, err := ix.git(ctx, nil, "write-tree")
	if err != nil {
		return "", fmt.Errorf("writing the tree: %w", err)
	}
	msg := strings.TrimSpace(title)
	if msg == "" {
		msg = "Proposed change"
	}
	sha, err := ix.git(ctx, nil, "commit-tree", "--no-gpg-sign", strings.TrimSpace(tree), "-p", head,
		"-m", msg, "-m", proposalTrailer+": "+id)
	if err != nil {
		return "", fmt.Errorf("committing: %w", err)
	}
	return strings.TrimSpace(sha), nil
}

// addFiles stores each file's text as it is (no filter, no line-ending
// conversion) and puts it in the index, keeping the mode of a file HEAD
// already has (an executable stays executable) and 100644 for a new one.
func (ix index) addFiles(ctx context.Context, head string, files []File) error {
	var paths strings.Builder
	modes := make([]string, len(files))
	for i, f := range files {
		mode, err := checkTreePath(ctx, ix.repo, head, f.Path)
		if err != nil {
			return err
		}
		modes[i] = mode
		if mode == "" {
			modes[i] = "100644"
		}
		blob := filepath.Join(ix.tmp, "blob-"+strconv.Itoa(i))
		if err := os.WriteFile(blob, []byte(f.Content), 0o600); err != nil {
			return fmt.Errorf("storing %s: %w", f.Path, err)
		}
		paths.WriteString(blob + "\n")
	}
	out, err := ix.git(ctx, []byte(paths.String()), "hash-object", "-w", "--no-filters", "--stdin-paths")
	if err != nil {
		return fmt.Errorf("storing the files: %w", err)
	}
	shas := strings.Fields(out)
	if len(shas) != len(files) {
		return fmt.Errorf("storing the files: git stored %d of %d", len(shas), len(files))
	}
	var info strings.Builder
	for i, f := range files {
		fmt.Fprintf(&info, "%s %s\t%s\x00", modes[i], shas[i], f.Path)
	}
	if _, err := ix.git(ctx, []byte(info.String()), "update-index", "--add", "-z", "--index-info"); err != nil {
		return refuse("the files cannot all be written: %v", err)
	}
	return nil
}

// described returns the commit sha with its diff. No external diff or
// textconv program runs on the proposal's content.
func described(ctx context.Context, dir, sha string) (Result, error) {
	diff, err := runGit(ctx, dir, nil, "show", "--format=", "--patch", "--no-color", "--no-ext-diff", "--no-textconv", sha)
	if err != nil {
		return Result{}, fmt.Errorf("reading the commit's diff: %w", err)
	}
	return Result{Commit: sha, Diff: diff}, nil
}
