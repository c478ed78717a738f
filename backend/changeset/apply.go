package changeset

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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

// gitEnv is the environment git runs in: the caller's, without GIT_*
// variables that could point it at another repository, never prompting.
func gitEnv() []string {
	env := []string{}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	return append(env, "GIT_TERMINAL_PROMPT=0",
		"GIT_AUTHOR_NAME="+AuthorName, "GIT_AUTHOR_EMAIL="+AuthorEmail,
		"GIT_COMMITTER_NAME="+AuthorName, "GIT_COMMITTER_EMAIL="+AuthorEmail)
}

func runGit(ctx context.Context, dir string, stdin []byte, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = gitEnv()
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = err.Error()
		}
		return out.String(), fmt.Errorf("git %s: %s", args[0], msg)
	}
	return out.String(), nil
}

// Repository checks that dir is a git repository with a commit and returns
// its top folder.
func Repository(ctx context.Context, dir string) (string, error) {
	top, err := runGit(ctx, dir, nil, "rev-parse", "--show-toplevel")
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
// from HEAD in a temporary worktree, which it removes again; the branch
// stays. On any failure nothing is left: no branch, no worktree. A patch
// that does not apply is ErrStale; bad input is ErrRefused.
//
// Apply survives being killed at any point (the app dying mid-approval):
// the commit is made on a detached worktree and the branch is created
// from it in one step, so the branch either holds the complete commit or
// does not exist; the worktree is locked with this process's id, and the
// next Apply in the repository removes the worktrees of approvals whose
// process is gone. Approving again a proposal whose commit was made but
// not recorded returns that commit.
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
	// Cleanup uses its own context: a cancelled approval still removes
	// what it made.
	bg := context.WithoutCancel(ctx)
	removeAbandoned(bg, repo)
	if _, err := runGit(ctx, repo, nil, "rev-parse", "--verify", "--quiet", "refs/heads/"+branch); err == nil {
		if res, ok := madeBefore(ctx, repo, branch, id); ok {
			return res, nil
		}
		return Result{}, fmt.Errorf("branch %s already exists in %s: delete it or decline this proposal", branch, repo)
	}
	tmp, err := os.MkdirTemp("", worktreeDirPrefix)
	if err != nil {
		return Result{}, fmt.Errorf("making a worktree folder: %w", err)
	}
	wt := filepath.Join(tmp, "worktree")
	if _, err := runGit(ctx, repo, nil, "worktree", "add", "--quiet", "--detach", "--lock", "--reason", lockReason(id), wt, "HEAD"); err != nil {
		os.RemoveAll(tmp)
		return Result{}, fmt.Errorf("making a worktree for %s: %w", branch, err)
	}
	defer removeWorktree(bg, repo, wt)
	res, err := commit(ctx, wt, title, id, c)
	if err != nil {
		return Result{}, err
	}
	// "create" makes the branch only if no branch of that name exists, in
	// one step: never a branch without the commit.
	if _, err := runGit(ctx, repo, []byte("create refs/heads/"+branch+" "+res.Commit+"\n"), "update-ref", "--stdin"); err != nil {
		return Result{}, fmt.Errorf("making branch %s: %w", branch, err)
	}
	res.Branch = branch
	return res, nil
}

func commit(ctx context.Context, wt, title, id string, c Change) (Result, error) {
	if c.Patch != "" {
		if err := applyPatch(ctx, wt, c.Patch); err != nil {
			return Result{}, err
		}
	} else {
		paths := make([]string, 0, len(c.Files))
		for _, f := range c.Files {
			if err := writeFile(wt, f); err != nil {
				return Result{}, err
			}
			paths = append(paths, f.Path)
		}
		if _, err := runGit(ctx, wt, nil, append([]string{"add", "--"}, paths...)...); err != nil {
			return Result{}, fmt.Errorf("staging the files: %w", err)
		}
	}
	if _, err := runGit(ctx, wt, nil, "diff", "--cached", "--quiet"); err == nil {
		return Result{}, refuse("the change set changes nothing: the files already have this content")
	}
	msg := strings.TrimSpace(title)
	if msg == "" {
		msg = "Proposed change"
	}
	if _, err := runGit(ctx, wt, nil, "-c", "commit.gpgsign=false", "commit", "--quiet", "--no-verify", "-m", msg, "-m", proposalTrailer+": "+id); err != nil {
		return Result{}, fmt.Errorf("committing: %w", err)
	}
	sha, err := runGit(ctx, wt, nil, "rev-parse", "HEAD")
	if err != nil {
		return Result{}, fmt.Errorf("reading the commit: %w", err)
	}
	return described(ctx, wt, strings.TrimSpace(sha))
}

// described returns the commit sha with its diff.
func described(ctx context.Context, dir, sha string) (Result, error) {
	diff, err := runGit(ctx, dir, nil, "show", "--format=", "--patch", "--no-color", sha)
	if err != nil {
		return Result{}, fmt.Errorf("reading the commit's diff: %w", err)
	}
	return Result{Commit: sha, Diff: diff}, nil
}

// writeFile writes one file, refusing to follow a symbolic link anywhere
// on its path (it could point outside the repository).
func writeFile(wt string, f File) error {
	parts := strings.Split(f.Path, "/")
	cur := wt
	for i, p := range parts {
		cur = filepath.Join(cur, p)
		st, err := os.Lstat(cur)
		if errors.Is(err, os.ErrNotExist) {
			break
		}
		if err != nil {
			return fmt.Errorf("checking %s: %w", f.Path, err)
		}
		if st.Mode()&os.ModeSymlink != 0 {
			return refuse("path %q goes through the symbolic link %q; change the link's target instead", f.Path, strings.Join(parts[:i+1], "/"))
		}
		if i < len(parts)-1 && !st.IsDir() {
			return refuse("path %q: %q is a file, not a folder", f.Path, strings.Join(parts[:i+1], "/"))
		}
		if i == len(parts)-1 && st.IsDir() {
			return refuse("path %q is a folder, not a file", f.Path)
		}
	}
	full := filepath.Join(wt, filepath.FromSlash(f.Path))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return fmt.Errorf("writing %s: %w", f.Path, err)
	}
	if err := os.WriteFile(full, []byte(f.Content), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", f.Path, err)
	}
	return nil
}

// PatchPaths lists the paths a unified patch names in its headers, each
// checked with CleanPath.
func PatchPaths(patch string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, line := range strings.Split(patch, "\n") {
		var p string
		switch {
		case strings.HasPrefix(line, "--- "), strings.HasPrefix(line, "+++ "):
			p = strings.TrimSpace(line[4:])
			if i := strings.IndexByte(p, '\t'); i >= 0 {
				p = p[:i]
			}
			if p == "/dev/null" {
				continue
			}
			p = strings.TrimPrefix(strings.TrimPrefix(p, "a/"), "b/")
		case strings.HasPrefix(line, "rename to "), strings.HasPrefix(line, "copy to "):
			p = line[strings.Index(line, " to ")+4:]
		default:
			continue
		}
		c, err := CleanPath(p)
		if err != nil {
			return nil, err
		}
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, refuse("the patch names no file: give a unified diff with --- and +++ lines")
	}
	return out, nil
}

func applyPatch(ctx context.Context, wt, patch string) error {
	if _, err := PatchPaths(patch); err != nil {
		return err
	}
	stat, err := runGit(ctx, wt, []byte(patch), "apply", "--numstat", "-")
	if err != nil {
		return refuse("the patch cannot be read: %v", err)
	}
	for _, l := range strings.Split(strings.TrimSpace(stat), "\n") {
		if strings.HasPrefix(l, "-\t-\t") {
			return refuse("the patch changes the binary file %s; only text changes can be proposed", strings.TrimPrefix(l, "-\t-\t"))
		}
	}
	if _, err := runGit(ctx, wt, []byte(patch), "apply", "--check", "--index", "-"); err != nil {
		return fmt.Errorf("%w to the repository's current HEAD (%v); ask the assistant for a new one", ErrStale, err)
	}
	if _, err := runGit(ctx, wt, []byte(patch), "apply", "--index", "-"); err != nil {
		return fmt.Errorf("%w: %v", ErrStale, err)
	}
	return nil
}

// AtHead returns a file's text at the repository's HEAD, and false when
// HEAD has no such file.
func AtHead(ctx context.Context, repo, path string) (string, bool, error) {
	if _, err := runGit(ctx, repo, nil, "cat-file", "-e", "HEAD:"+path); err != nil {
		return "", false, nil
	}
	out, err := runGit(ctx, repo, nil, "cat-file", "blob", "HEAD:"+path)
	if err != nil {
		return "", false, fmt.Errorf("reading %s at HEAD: %w", path, err)
	}
	return out, true, nil
}

// CheckHead refuses paths that go through, or are, a symbolic link or a
// submodule in the repository's HEAD (where the branch starts), so such a
// proposal is refused when it is made, not only when it is approved.
func CheckHead(ctx context.Context, repo string, paths []string) error {
	for _, p := range paths {
		parts := strings.Split(p, "/")
		prefixes := make([]string, len(parts))
		for i := range parts {
			prefixes[i] = strings.Join(parts[:i+1], "/")
		}
		out, err := runGit(ctx, repo, nil, append([]string{"ls-tree", "-z", "HEAD", "--"}, prefixes...)...)
		if err != nil {
			return fmt.Errorf("checking %s at HEAD: %w", p, err)
		}
		for _, rec := range strings.Split(out, "\x00") {
			meta, name, ok := strings.Cut(rec, "\t")
			if !ok {
				continue
			}
			switch strings.Fields(meta)[0] {
			case "120000":
				return refuse("path %q goes through the symbolic link %q; change the link's target instead", p, name)
			case "160000":
				return refuse("path %q is inside the submodule %q; propose the change in that repository", p, name)
			}
		}
	}
	return nil
}
