// Package changeset applies an approved change set — whole files or a
// unified patch — to a local git repository as one commit on a new branch
// made in a separate worktree. It never checks out anything in the user's
// own checkout, never touches uncommitted work there, and runs git with
// argument vectors only (nothing reaches a shell). It holds no credential
// and never pushes.
package changeset

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"
)

// File is one whole file of a change set: its path relative to the
// repository root (forward slashes) and its new text.
type File struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

// Change is what a proposal asks for: either Files or a unified Patch.
type Change struct {
	Files []File `json:"files,omitempty"`
	Patch string `json:"patch,omitempty"`
}

// Limits keep a proposal something a person can read on a card, and
// bound what an assistant can make the app store (each pending proposal
// is kept whole until the owner decides).
const (
	MaxFiles    = 200
	MaxBytes    = 1 << 20 // all contents or the patch together
	MaxPathSize = 1024    // bytes of one path
)

var (
	// ErrRefused wraps every refusal of bad input; the message says why.
	ErrRefused = errors.New("change set refused")
	// ErrStale means the patch no longer applies to the repository's HEAD;
	// nothing was changed.
	ErrStale = errors.New("the patch no longer applies")
)

func refuse(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrRefused, fmt.Sprintf(format, a...))
}

// CleanPath checks one repository path and returns it cleaned. It refuses
// absolute paths, any ".." step, and anything inside a .git folder.
func CleanPath(p string) (string, error) {
	if p == "" {
		return "", refuse("a file has an empty path")
	}
	if len(p) > MaxPathSize {
		return "", refuse("a path may be at most %d bytes; %.40q… has %d", MaxPathSize, p, len(p))
	}
	if strings.ContainsRune(p, 0) || strings.Contains(p, "\\") {
		return "", refuse("path %q: use forward slashes and no control characters", p)
	}
	if strings.HasPrefix(p, "/") || (len(p) > 1 && p[1] == ':') {
		return "", refuse("path %q must be relative to the repository root", p)
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return "", refuse("path %q leaves the repository (\"..\" is not allowed)", p)
		}
		if strings.EqualFold(seg, ".git") {
			return "", refuse("path %q is inside .git; a change set may only change the repository's files", p)
		}
	}
	c := path.Clean(p)
	if c == "." {
		return "", refuse("path %q names the repository root, not a file", p)
	}
	return c, nil
}

func checkText(what, s string) error {
	if strings.IndexByte(s, 0) >= 0 || !utf8.ValidString(s) {
		return refuse("%s has binary content; only text files can be proposed", what)
	}
	return nil
}

// Validate checks the change set without looking at any repository and
// returns it with cleaned paths.
func (c Change) Validate() (Change, error) {
	if (len(c.Files) == 0) == (c.Patch == "") {
		return c, refuse("give either files or a patch (one of them, not both)")
	}
	if c.Patch != "" {
		if len(c.Patch) > MaxBytes {
			return c, refuse("a patch may be at most %d MiB; this one has %.1f MiB: split the change into smaller proposals", MaxBytes>>20, mib(len(c.Patch)))
		}
		if strings.Contains(c.Patch, "GIT binary patch") {
			return c, refuse("the patch has binary content; only text changes can be proposed")
		}
		if err := checkText("the patch", c.Patch); err != nil {
			return c, err
		}
		return c, checkPatchModes(c.Patch)
	}
	if len(c.Files) > MaxFiles {
		return c, refuse("a change set may hold at most %d files; this one has %d: split it into smaller proposals", MaxFiles, len(c.Files))
	}
	out := Change{Files: make([]File, 0, len(c.Files))}
	seen := map[string]bool{}
	total := 0
	for _, f := range c.Files {
		p, err := CleanPath(f.Path)
		if err != nil {
			return c, err
		}
		if seen[p] {
			return c, refuse("path %q is listed twice", p)
		}
		seen[p] = true
		if err := checkText("file "+p, f.Content); err != nil {
			return c, err
		}
		total += len(f.Content)
		out.Files = append(out.Files, File{Path: p, Content: f.Content})
	}
	if total > MaxBytes {
		return c, refuse("a change set may hold at most %d MiB of file text in all; this one has %.1f MiB: split it into smaller proposals", MaxBytes>>20, mib(total))
	}
	for p := range seen {
		for dir := path.Dir(p); dir != "."; dir = path.Dir(dir) {
			if seen[dir] {
				return c, refuse("path %q is inside %q, which the change set also writes as a file", p, dir)
			}
		}
	}
	return out, nil
}

func mib(n int) float64 { return float64(n) / (1 << 20) }
