package review

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/osfoundry/desktop/backend/worktree"
)

// File is one changed file of a branch since its base: committed work and
// work not committed yet, new files included.
type File struct {
	Path    string `json:"path"`
	Status  string `json:"status"` // added, modified, deleted
	Added   int    `json:"added"`
	Removed int    `json:"removed"`
	Binary  bool   `json:"binary"`
	// Patch is git's unified diff of the file (header and hunks); ""
	// for a binary file or one past maxPatchLines (Large).
	Patch string `json:"patch"`
	Large bool   `json:"large"`
}

// Bounds of what the view draws: a generated file of a million lines is
// listed with its counts, not drawn.
const (
	maxPatchLines = 20000
	maxNewFiles   = 500
	maxNewSize    = 2 << 20
)

// Changes lists the files of the worktree at dir that differ from base (a
// commit), with their diffs, in path order.
func Changes(ctx context.Context, env []string, dir, base string) ([]File, error) {
	num, err := worktree.Git(ctx, env, dir, "diff", "--numstat", "-z", "--no-renames", base, "--")
	if err != nil {
		return nil, fmt.Errorf("reading the changes of %s: %w", dir, err)
	}
	patch, err := worktree.Git(ctx, env, dir, "-c", "core.quotePath=false", "diff", "--no-color", "--no-ext-diff", "--no-renames", "-U3", base, "--")
	if err != nil {
		return nil, fmt.Errorf("reading the diff of %s: %w", dir, err)
	}
	files := []File{}
	for _, rec := range strings.Split(strings.TrimSuffix(num, "\x00"), "\x00") {
		f := strings.SplitN(rec, "\t", 3)
		if len(f) != 3 {
			continue
		}
		file := File{Path: f[2], Status: "modified", Binary: f[0] == "-"}
		file.Added, _ = strconv.Atoi(f[0])
		file.Removed, _ = strconv.Atoi(f[1])
		files = append(files, file)
	}
	// git prints the patches in the order of --numstat: one "diff --git"
	// section per file.
	for i, sec := range splitPatch(patch) {
		if i >= len(files) {
			break
		}
		switch {
		case strings.Contains(firstLines(sec, 6), "\nnew file mode"):
			files[i].Status = "added"
		case strings.Contains(firstLines(sec, 6), "\ndeleted file mode"):
			files[i].Status = "deleted"
		}
		if files[i].Binary {
			continue
		}
		if strings.Count(sec, "\n") > maxPatchLines {
			files[i].Large = true
			continue
		}
		files[i].Patch = sec
	}
	newFiles, err := untracked(ctx, env, dir)
	if err != nil {
		return nil, err
	}
	files = append(files, newFiles...)
	sortFiles(files)
	return files, nil
}

func splitPatch(p string) []string {
	if p == "" {
		return nil
	}
	var out []string
	for {
		i := strings.Index(p, "\ndiff --git ")
		if i < 0 {
			return append(out, p)
		}
		out = append(out, p[:i+1])
		p = p[i+1:]
	}
}

func firstLines(s string, n int) string {
	i := 0
	for k := 0; k < n; k++ {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			return s
		}
		i += j + 1
	}
	return s[:i]
}

// untracked lists files not yet added to git as new files, with a diff
// written here (git diff cannot see them without touching the index the
// agent uses).
func untracked(ctx context.Context, env []string, dir string) ([]File, error) {
	out, err := worktree.Git(ctx, env, dir, "ls-files", "--others", "--exclude-standard", "-z")
	if err != nil {
		return nil, fmt.Errorf("listing new files of %s: %w", dir, err)
	}
	files := []File{}
	for _, name := range strings.Split(strings.TrimSuffix(out, "\x00"), "\x00") {
		if name == "" {
			continue
		}
		f := File{Path: name, Status: "added"}
		if len(files) >= maxNewFiles {
			f.Large = true
			files = append(files, f)
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		st, err := os.Lstat(p)
		if err != nil || !st.Mode().IsRegular() || st.Size() > maxNewSize {
			f.Large = err == nil && st.Size() > maxNewSize
			f.Binary = !f.Large
			files = append(files, f)
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil || bytes.IndexByte(b, 0) >= 0 {
			f.Binary = true
			files = append(files, f)
			continue
		}
		f.Patch, f.Added = newFilePatch(name, string(b))
		if f.Added > maxPatchLines {
			f.Patch, f.Large = "", true
		}
		files = append(files, f)
	}
	return files, nil
}

// newFilePatch is the unified diff git would print for a new file.
func newFilePatch(name, text string) (string, int) {
	if text == "" {
		return "diff --git a/" + name + " b/" + name + "\nnew file mode 100644\n", 0
	}
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "diff --git a/%s b/%s\nnew file mode 100644\n--- /dev/null\n+++ b/%s\n@@ -0,0 +1", name, name, name)
	if len(lines) != 1 {
		fmt.Fprintf(&b, ",%d", len(lines))
	}
	b.WriteString(" @@\n")
	for _, l := range lines {
		b.WriteString("+")
		b.WriteString(l)
	}
	if !strings.HasSuffix(text, "\n") {
		b.WriteString("\n\\ No newline at end of file\n")
	}
	return b.String(), len(lines)
}

func sortFiles(fs []File) {
	slices.SortStableFunc(fs, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
}
