package forge

import (
	"context"
	"fmt"
	"strings"
	"unicode"
)

// Draft is a pull request's title and body drafted from a branch's
// commits since its base; the person edits both before opening.
type Draft struct {
	Title   string   `json:"title"`
	Body    string   `json:"body"`
	Commits []string `json:"commits"` // subjects, oldest first
}

// DraftFrom reads branch's commits that base does not have. One commit
// gives its subject and message; several give the branch's name as the
// title and the subjects as a list.
func DraftFrom(ctx context.Context, dir, base, branch string) (Draft, error) {
	// %x1e ends a commit, %x1f splits subject from body.
	out, err := git(ctx, dir, nil, "log", "--reverse", "--format=%s%x1f%b%x1e", base+".."+branch, "--")
	if err != nil {
		return Draft{}, fmt.Errorf("reading the commits of %s since %s: %w", branch, base, err)
	}
	type commit struct{ subject, body string }
	var cs []commit
	for _, rec := range strings.Split(out, "\x1e") {
		rec = strings.TrimSpace(rec)
		if rec == "" {
			continue
		}
		s, b, _ := strings.Cut(rec, "\x1f")
		cs = append(cs, commit{strings.TrimSpace(s), strings.TrimSpace(b)})
	}
	d := Draft{Commits: []string{}}
	for _, c := range cs {
		d.Commits = append(d.Commits, c.subject)
	}
	switch len(cs) {
	case 0:
		return Draft{}, fmt.Errorf("%s has no commits that %s does not have: commit the work first", branch, base)
	case 1:
		d.Title, d.Body = cs[0].subject, cs[0].body
	default:
		d.Title = titleFromBranch(branch)
		var b strings.Builder
		for _, c := range cs {
			b.WriteString("- " + c.subject + "\n")
		}
		d.Body = strings.TrimSuffix(b.String(), "\n")
	}
	return d, nil
}

// titleFromBranch turns osf/fix-login_page into "Fix login page".
func titleFromBranch(branch string) string {
	name := branch[strings.LastIndex(branch, "/")+1:]
	name = strings.Join(strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' }), " ")
	if name == "" {
		return branch
	}
	r := []rune(name)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}
