package worktree

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Stat is how far a worktree moved from its base: lines added and removed,
// committed or not, new files included.
type Stat struct {
	Added   int `json:"added"`
	Removed int `json:"removed"`
	Files   int `json:"files"`
}

// Bounds on counting new files' lines: the rail's counts are a glance, and
// a build output folder nobody ignored must not stall the timer.
const (
	maxUntracked     = 200
	maxUntrackedSize = 1 << 20
)

// Diff reads `git diff --numstat <base>` of the worktree at dir (its
// working files against the base commit) plus the lines of files not yet
// added to git.
func Diff(ctx context.Context, env []string, dir, base string) (Stat, error) {
	var s Stat
	out, err := Git(ctx, env, dir, "diff", "--numstat", "--no-renames", base, "--")
	if err != nil {
		return s, fmt.Errorf("reading the changes of %s: %w", dir, err)
	}
	for _, line := range strings.Split(out, "\n") {
		f := strings.SplitN(line, "\t", 3)
		if len(f) < 3 {
			continue
		}
		a, _ := strconv.Atoi(f[0]) // "-" for binary files
		r, _ := strconv.Atoi(f[1])
		s.Added, s.Removed, s.Files = s.Added+a, s.Removed+r, s.Files+1
	}
	untracked, err := Git(ctx, env, dir, "ls-files", "--others", "--exclude-standard", "-z")
	if err != nil {
		return s, fmt.Errorf("listing new files of %s: %w", dir, err)
	}
	for i, name := range strings.Split(strings.TrimRight(untracked, "\x00"), "\x00") {
		if name == "" || i >= maxUntracked {
			break
		}
		s.Files++
		p := filepath.Join(dir, filepath.FromSlash(name))
		if st, err := os.Stat(p); err != nil || st.Size() > maxUntrackedSize {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil || bytes.IndexByte(b, 0) >= 0 {
			continue // binary: counted as a file, not as lines
		}
		n := bytes.Count(b, []byte{'\n'})
		if len(b) > 0 && b[len(b)-1] != '\n' {
			n++
		}
		s.Added += n
	}
	return s, nil
}
