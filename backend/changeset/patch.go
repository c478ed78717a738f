package changeset

import (
	"context"
	"fmt"
	"strings"
)

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

// Git modes a change set may not create: the files path writes regular
// files only, and a patch is held to the same.
const (
	modeExec    = "100755"
	modeSymlink = "120000"
	modeGitlink = "160000"
)

// modeRefusal says why path may not get mode, or "" when it may.
func modeRefusal(path, mode string) string {
	switch mode {
	case modeSymlink:
		return fmt.Sprintf("the patch makes %q a symbolic link; a change set may hold regular text files only, so write the file itself", path)
	case modeGitlink:
		return fmt.Sprintf("the patch adds or changes the submodule %q; propose that change in the submodule's own repository", path)
	case modeExec:
		return fmt.Sprintf("the patch makes %q executable (mode 100755); a change set cannot change file modes: propose the file without the mode and ask the owner to set it", path)
	}
	return ""
}

// checkPatchModes refuses a patch whose git headers give a path the mode
// of a symbolic link, a submodule or an executable ("new file mode",
// "new mode"), or change an existing symbolic link or submodule (the mode
// on an "index" line). Apply checks the resulting index as well; this lets
// a proposal be refused when it is made.
func checkPatchModes(patch string) error {
	path, inHunk := "", false
	for _, line := range strings.Split(patch, "\n") {
		switch {
		case strings.HasPrefix(line, "diff --git "):
			path, inHunk = "", false
			if i := strings.LastIndex(line, " b/"); i >= 0 {
				path = line[i+3:]
			}
		case strings.HasPrefix(line, "@@"):
			inHunk = true
		case inHunk:
		case strings.HasPrefix(line, "+++ b/"):
			path = strings.TrimSpace(strings.TrimPrefix(line, "+++ b/"))
		case strings.HasPrefix(line, "new file mode "), strings.HasPrefix(line, "new mode "):
			f := strings.Fields(line)
			if why := modeRefusal(path, f[len(f)-1]); why != "" {
				return refuse("%s", why)
			}
		case strings.HasPrefix(line, "index "):
			if f := strings.Fields(line); len(f) == 3 && (f[2] == modeSymlink || f[2] == modeGitlink) {
				return refuse("%s", modeRefusal(path, f[2]))
			}
		}
	}
	return nil
}

// applyPatch applies a unified patch to the index only: apply --cached
// reads and writes blobs, so no filter runs and no file is written.
func (ix index) applyPatch(ctx context.Context, patch string) error {
	if _, err := PatchPaths(patch); err != nil {
		return err
	}
	stat, err := ix.git(ctx, []byte(patch), "apply", "--numstat", "-")
	if err != nil {
		return refuse("the patch cannot be read: %v", err)
	}
	for _, l := range strings.Split(strings.TrimSpace(stat), "\n") {
		if strings.HasPrefix(l, "-\t-\t") {
			return refuse("the patch changes the binary file %s; only text changes can be proposed", strings.TrimPrefix(l, "-\t-\t"))
		}
	}
	if _, err := ix.git(ctx, []byte(patch), "apply", "--check", "--cached", "-"); err != nil {
		return fmt.Errorf("%w to the repository's current HEAD (%v); ask the assistant for a new one", ErrStale, err)
	}
	if _, err := ix.git(ctx, []byte(patch), "apply", "--cached", "-"); err != nil {
		return fmt.Errorf("%w: %v", ErrStale, err)
	}
	return nil
}
