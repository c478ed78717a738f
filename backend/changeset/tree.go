package changeset

import (
	"context"
	"fmt"
	"strings"
)

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

// treeEntry is one ls-tree record.
type treeEntry struct{ mode, kind, name string }

// entriesOn lists what tree-ish rev has at path and at each folder above
// it: ls-tree answers with the deepest entry it reaches, so a record named
// above path is a file, link or submodule standing where a folder should.
func entriesOn(ctx context.Context, repo, rev, path string) ([]treeEntry, error) {
	parts := strings.Split(path, "/")
	prefixes := make([]string, len(parts))
	for i := range parts {
		prefixes[i] = strings.Join(parts[:i+1], "/")
	}
	out, err := runGit(ctx, repo, nil, append([]string{"ls-tree", "-z", rev, "--"}, prefixes...)...)
	if err != nil {
		return nil, fmt.Errorf("checking %s at HEAD: %w", path, err)
	}
	var es []treeEntry
	for _, rec := range strings.Split(out, "\x00") {
		meta, name, ok := strings.Cut(rec, "\t")
		if f := strings.Fields(meta); ok && len(f) == 3 {
			es = append(es, treeEntry{mode: f[0], kind: f[1], name: name})
		}
	}
	return es, nil
}

// CheckHead refuses paths that go through, or are, a symbolic link or a
// submodule in the repository's HEAD (where the branch starts), so such a
// proposal is refused when it is made, not only when it is approved.
func CheckHead(ctx context.Context, repo string, paths []string) error {
	for _, p := range paths {
		es, err := entriesOn(ctx, repo, "HEAD", p)
		if err != nil {
			return err
		}
		for _, e := range es {
			if e.name != p && !strings.HasPrefix(p, e.name+"/") {
				continue
			}
			switch e.mode {
			case modeSymlink:
				return refuse("path %q goes through the symbolic link %q; change the link's target instead", p, e.name)
			case modeGitlink:
				return refuse("path %q is inside the submodule %q; propose the change in that repository", p, e.name)
			}
		}
	}
	return nil
}

// checkTreePath refuses writing the file path on top of rev when a
// symbolic link, submodule or file stands on its way or a folder is at it,
// and returns the mode the file has in rev ("" when it has none).
func checkTreePath(ctx context.Context, repo, rev, path string) (string, error) {
	es, err := entriesOn(ctx, repo, rev, path)
	if err != nil {
		return "", err
	}
	mode := ""
	for _, e := range es {
		if e.name != path && !strings.HasPrefix(path, e.name+"/") {
			continue // a neighbour ls-tree lists with a folder's contents
		}
		switch {
		case e.mode == modeSymlink:
			return "", refuse("path %q goes through the symbolic link %q; change the link's target instead", path, e.name)
		case e.mode == modeGitlink:
			return "", refuse("path %q is inside the submodule %q; propose the change in that repository", path, e.name)
		case e.name == path && e.kind == "tree":
			return "", refuse("path %q is a folder, not a file", path)
		case e.name == path:
			mode = e.mode
		case e.kind != "tree":
			return "", refuse("path %q: %q is a file, not a folder", path, e.name)
		}
	}
	return mode, nil
}

// checkModes refuses an index that, compared with head, makes any path a
// symbolic link or a submodule, or newly executable. A change set holds
// regular files only; a patch could otherwise add a link pointing out of
// the repository, a gitlink, or a script the owner's tools would run.
// Renames are detected so that renaming an executable keeps it allowed.
func (ix index) checkModes(ctx context.Context, head string) error {
	out, err := ix.git(ctx, nil, "diff-index", "--cached", "-z", "--raw", "-M", "--no-ext-diff", head)
	if err != nil {
		return fmt.Errorf("comparing the change with HEAD: %w", err)
	}
	if out == "" {
		return refuse("the change set changes nothing: the files already have this content")
	}
	fields := strings.Split(strings.TrimSuffix(out, "\x00"), "\x00")
	for i := 0; i < len(fields); i++ {
		meta := strings.Fields(strings.TrimPrefix(fields[i], ":"))
		if len(meta) != 5 || i+1 >= len(fields) {
			return fmt.Errorf("comparing the change with HEAD: unexpected record %q", fields[i])
		}
		oldMode, newMode, status := meta[0], meta[1], meta[4]
		i++
		path := fields[i]
		if status[0] == 'R' || status[0] == 'C' {
			if i+1 >= len(fields) {
				return fmt.Errorf("comparing the change with HEAD: unexpected record %q", fields[i])
			}
			i++
			path = fields[i]
		}
		if newMode == modeSymlink || newMode == modeGitlink || newMode == modeExec && oldMode != modeExec {
			return refuse("%s", modeRefusal(path, newMode))
		}
	}
	return nil
}
