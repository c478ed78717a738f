package connect

import (
	"strings"
	"testing"
)

func TestProposalFieldProblem(t *testing.T) {
	for _, c := range []struct {
		name                            string
		project, title, target, details string
		files                           []string
		want                            string // in the problem; "" = none
	}{
		{"fine", "p1", "Fix the intro", "note-1", "why", []string{"a.md"}, ""},
		{"long title", "p1", strings.Repeat("t", maxProposalTitle+1), "", "", nil, "title may be at most 200 characters"},
		{"NUL in the title", "p1", "a\x00b", "", "", nil, "title must be UTF-8 text without NUL characters"},
		{"invalid UTF-8 details", "p1", "t", "", "a\xffb", nil, "details must be UTF-8 text without NUL characters"},
		{"NUL in the project", "p\x001", "t", "", "", nil, "project_id must be UTF-8"},
		{"too many files", "p1", "t", "", "", make([]string, maxProposalFiles+1), "at most 200 files"},
	} {
		got := proposalFieldProblem(c.project, c.title, c.target, c.details, c.files)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
