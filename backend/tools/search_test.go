package tools

import (
	"context"
	"strings"
	"testing"
)

// searchSpy records what a search tool passed on.
type searchSpy struct {
	query string
	limit int
}

func (s *searchSpy) MemorySearch(_ context.Context, _, query string, limit int) ([]MemoryHit, error) {
	s.query, s.limit = query, limit
	return nil, nil
}

func (s *searchSpy) WebSearch(_ context.Context, query string, limit int) ([]WebHit, error) {
	s.query, s.limit = query, limit
	return nil, nil
}

// The search tools' arguments: blank or malformed ones are refused with a
// message for the model, limits fall back to each tool's default or cap.
func TestSearchArgs(t *testing.T) {
	for _, tc := range []struct {
		name, tool, args string
		wantErr          string // part of the error result; "" = the search ran
		query            string
		limit            int
	}{
		{"memory default", "memory", `{"query":"  release notes "}`, "", "release notes", 10},
		{"memory cap", "memory", `{"query":"x","limit":500}`, "", "x", 50},
		{"memory blank", "memory", `{"query":"   "}`, "pass the words to search for", "", 0},
		{"memory bad json", "memory", `{"query":1}`, "invalid arguments", "", 0},
		{"web default", "web", `{"query":" go "}`, "", " go ", 8},
		{"web over cap", "web", `{"query":"go","limit":21}`, "", "go", 8},
		{"web limit", "web", `{"query":"go","limit":3}`, "", "go", 3},
		{"web blank", "web", `{}`, "pass what to search for", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spy := &searchSpy{}
			tl := WebSearchTool(spy)
			if tc.tool == "memory" {
				tl = MemorySearchTool(spy)
			}
			res := run(t, tl, Call{Workspace: "w1"}, tc.args)
			if tc.wantErr != "" {
				if !res.IsError || !strings.Contains(res.Text, tc.wantErr) {
					t.Fatalf("got %+v, want an error with %q", res, tc.wantErr)
				}
				if spy.query != "" || spy.limit != 0 {
					t.Fatalf("searched %q (%d) despite the error", spy.query, spy.limit)
				}
				return
			}
			if res.IsError || spy.query != tc.query || spy.limit != tc.limit {
				t.Fatalf("got %+v searching %q (%d), want %q (%d)", res, spy.query, spy.limit, tc.query, tc.limit)
			}
		})
	}
}
