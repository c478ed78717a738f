package usage

import (
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/testkit/fixtures"
	"github.com/osfoundry/desktop/backend/usage/usagetest"
)

var utc = time.UTC

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func newService(home string, now time.Time) *Service {
	return New(Options{Home: home, Now: func() time.Time { return now }, Loc: utc})
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A generated home with known sums: two sessions, one request copied
// into a resumed session (counted once), a request without a request id
// (never deduplicated), a user line, a corrupt line, an over-long line and
// a last line still being written.
func TestClaudeGeneratedHomeKnownTotals(t *testing.T) {
	home := t.TempDir()
	now := at("2026-12-04T15:30:00Z") // a Friday
	a := usagetest.ClaudeSession(home, "-work-shop", "s1")
	b := usagetest.ClaudeSession(home, "-work-web", "s2")
	sonnet := "claude-sonnet-4-5-20250929"
	reqs := []struct {
		path string
		r    usagetest.Request
	}{
		// Monday of this week: in the week, not today.
		{a, usagetest.Request{At: at("2026-11-30T09:00:00Z"), MsgID: "msg_1", ReqID: "req_1", Model: sonnet, In: 1000, Out: 500, CW: 2000, CR: 10000}},
		// Last Sunday: in the seven days, not this week.
		{a, usagetest.Request{At: at("2026-11-29T20:00:00Z"), MsgID: "msg_0", ReqID: "req_0", Model: sonnet, In: 7, Out: 3}},
		// Today, twice: the resumed session copied it.
		{a, usagetest.Request{At: at("2026-12-04T13:10:00Z"), MsgID: "msg_2", ReqID: "req_2", Model: sonnet, In: 100, Out: 50, CW: 0, CR: 4000}},
		{b, usagetest.Request{At: at("2026-12-04T13:10:00Z"), MsgID: "msg_2", ReqID: "req_2", Model: sonnet, In: 100, Out: 50, CW: 0, CR: 4000}},
		// Today, no request id: kept every time.
		{b, usagetest.Request{At: at("2026-12-04T14:00:00Z"), MsgID: "msg_3", Model: "claude-opus-4-1-20250805", In: 10, Out: 20}},
		{b, usagetest.Request{At: at("2026-12-04T14:00:00Z"), MsgID: "msg_3", Model: "claude-opus-4-1-20250805", In: 10, Out: 20}},
	}
	for _, q := range reqs {
		must(t, usagetest.Append(q.path, usagetest.ClaudeLine("s", q.r)))
	}
	must(t, usagetest.Append(a, usagetest.UserLine("s1", now, "thanks")))
	// An API error Claude Code wrote as an answer: not a request.
	must(t, usagetest.Append(a, usagetest.ClaudeLine("s", usagetest.Request{At: at("2026-12-04T14:30:00Z"), MsgID: "msg_e", ReqID: "", Model: "<synthetic>"})))
	must(t, usagetest.Append(a, []byte("{\"type\":\"assistant\",\"usage\": broken\n")))
	huge := usagetest.ClaudeLine("s", usagetest.Request{At: now, MsgID: "msg_big", ReqID: "r", Model: sonnet, In: 1e6, Pad: maxLine + 10})
	must(t, usagetest.Append(a, huge))
	partial := usagetest.ClaudeLine("s", usagetest.Request{At: now, MsgID: "msg_4", ReqID: "req_4", Model: sonnet, In: 1, Out: 1})
	must(t, usagetest.Append(b, partial[:len(partial)-20]))

	r, err := newService(home, now).Report()
	must(t, err)
	c := r.Claude
	if !c.Found || c.Files != 2 {
		t.Fatalf("found %v, files %d", c.Found, c.Files)
	}
	wantToday := Totals{Input: 120, Output: 90, CacheRead: 4000, Tokens: 4210, Requests: 3}
	wantToday.CostUSD = (100*3+50*15+4000*0.30)/1e6 + 2*(10*15+20*75)/1e6
	assertTotals(t, "today", c.Today, wantToday)
	wantWeek := Totals{Input: 1120, Output: 590, CacheWrite: 2000, CacheRead: 14000, Tokens: 17710, Requests: 4}
	wantWeek.CostUSD = wantToday.CostUSD + (1000*3+500*15+2000*3.75+10000*0.30)/1e6
	assertTotals(t, "week", c.Week, wantWeek)
	if r.Skipped != 2 {
		t.Errorf("skipped %d lines, want 2 (corrupt, over-long)", r.Skipped)
	}
	if len(r.Days) != 7 || r.Days[6].Date != "2026-12-04" || r.Days[0].Date != "2026-11-28" {
		t.Fatalf("days %+v", r.Days)
	}
	if r.Days[6].ClaudeTokens != 4210 || r.Days[2].ClaudeTokens != 13500 || r.Days[1].ClaudeTokens != 10 {
		t.Errorf("day tokens %+v", r.Days)
	}
	if r.WeekStart != at("2026-11-30T00:00:00Z").UnixMilli() {
		t.Errorf("week starts %v", time.UnixMilli(r.WeekStart).UTC())
	}
}

func assertTotals(t *testing.T, name string, got, want Totals) {
	t.Helper()
	if math.Abs(got.CostUSD-want.CostUSD) > 1e-9 {
		t.Errorf("%s cost %.6f, want %.6f", name, got.CostUSD, want.CostUSD)
	}
	got.CostUSD, want.CostUSD = 0, 0
	if got != want {
		t.Errorf("%s %+v, want %+v", name, got, want)
	}
}

// A refresh reads only appended bytes: the finished last line counts, and
// a file rewritten shorter is read again from its start.
func TestClaudeIncremental(t *testing.T) {
	home := t.TempDir()
	now := at("2026-12-04T15:30:00Z")
	p := usagetest.ClaudeSession(home, "-w", "s")
	line := func(id string, in int64) []byte {
		return usagetest.ClaudeLine("s", usagetest.Request{At: at("2026-12-04T15:00:00Z"), MsgID: id, ReqID: "r" + id, Model: "claude-haiku-4-5", In: in})
	}
	l2 := line("m2", 20)
	must(t, usagetest.Append(p, append(line("m1", 10), l2[:30]...)))
	s := newService(home, now)
	r, _ := s.Report()
	if r.Claude.Today.Tokens != 10 {
		t.Fatalf("first read %d tokens, want 10", r.Claude.Today.Tokens)
	}
	off := s.claude[p].off
	must(t, usagetest.Append(p, l2[30:]))
	r, _ = s.Report()
	if r.Claude.Today.Tokens != 30 || s.claude[p].off != off+int64(len(l2)) {
		t.Fatalf("after append %d tokens at offset %d", r.Claude.Today.Tokens, s.claude[p].off)
	}
	must(t, os.WriteFile(p, line("m3", 5), 0o644))
	r, _ = s.Report()
	if r.Claude.Today.Tokens != 5 {
		t.Fatalf("after rewrite %d tokens, want 5", r.Claude.Today.Tokens)
	}
	must(t, os.Remove(p))
	if r, _ = s.Report(); r.Claude.Today.Tokens != 0 || r.Claude.Files != 0 {
		t.Fatalf("after removal %+v", r.Claude)
	}
}

// The recorded Claude Code 2.1.328 homes: figures checked by hand against
// the records (8 and 3 requests, requestRef as the request id).
func TestClaudeRecordedHomes(t *testing.T) {
	for _, tc := range []struct {
		store    string
		requests int
		tokens   int64
	}{
		{"claude-2.1.328", 8, 116018},
		{"claude-headless-2.1.328.tools", 3, 36514},
	} {
		t.Run(tc.store, func(t *testing.T) {
			home, err := fixtures.Store(tc.store)
			must(t, err)
			r, err := newService(home, at("2026-11-30T03:00:00Z")).Report()
			must(t, err)
			if r.Claude.Today.Requests != tc.requests || r.Claude.Today.Tokens != tc.tokens || r.Skipped != 0 {
				t.Fatalf("today %+v skipped %d, want %d requests, %d tokens", r.Claude.Today, r.Skipped, tc.requests, tc.tokens)
			}
			if r.Claude.Today.CostUSD <= 0 { // an Opus model newer than the table: priced as Opus
				t.Errorf("no estimated cost: %+v", r.Claude.Today)
			}
			w := r.Claude.Window
			if w == nil || w.Start != at("2026-11-30T01:00:00Z").UnixMilli() || w.ResetsAt != at("2026-11-30T06:00:00Z").UnixMilli() {
				t.Fatalf("window %+v", w)
			}
			if w.Totals.Tokens != tc.tokens || w.ElapsedPercent != 40 {
				t.Errorf("window totals %+v elapsed %v", w.Totals, w.ElapsedPercent)
			}
		})
	}
}

// The recorded Codex 0.169 home: its token total, and no rate limits (the
// fake model sends none, so primary and secondary are null).
func TestCodexRecordedHome(t *testing.T) {
	home, err := fixtures.Store("codex-0.169.0")
	must(t, err)
	r, err := newService(home, at("2026-11-30T03:00:00Z")).Report()
	must(t, err)
	if !r.Codex.Found || r.Codex.Files != 1 || r.Codex.Today != 74919 || r.Codex.Primary != nil || r.Codex.RecordedAt != 0 {
		t.Fatalf("codex %+v", r.Codex)
	}
	if r.Claude.Found {
		t.Errorf("a Codex home has no Claude logs: %+v", r.Claude)
	}
}

func TestMissingHome(t *testing.T) {
	r, err := newService(filepath.Join(t.TempDir(), "nobody"), at("2026-12-04T15:30:00Z")).Report()
	must(t, err)
	if r.Claude.Found || r.Codex.Found || r.Claude.Window != nil || len(r.Days) != 7 {
		t.Fatalf("report %+v", r)
	}
}

// CLAUDE_CONFIG_DIR and CODEX_HOME move the folders, as for External
// agents; archived Codex sessions still count.
func TestMovedFolders(t *testing.T) {
	home, claudeDir, codexDir := t.TempDir(), t.TempDir(), t.TempDir()
	now := at("2026-12-04T15:30:00Z")
	req := usagetest.Request{At: now, MsgID: "m", ReqID: "r", Model: "claude-sonnet-4-5", In: 5}
	must(t, usagetest.Append(filepath.Join(claudeDir, "projects", "-w", "s.jsonl"), usagetest.ClaudeLine("s", req)))
	must(t, usagetest.Append(usagetest.ClaudeSession(home, "-w", "ignored"), usagetest.ClaudeLine("s", usagetest.Request{At: now, MsgID: "x", ReqID: "y", In: 100})))
	must(t, usagetest.Append(filepath.Join(codexDir, "archived_sessions", "rollout-2026-12-04T10-00-00-01a2.jsonl"), usagetest.CodexTokenCount(now, 70, nil, nil)))
	env := map[string]string{"CLAUDE_CONFIG_DIR": claudeDir, "CODEX_HOME": codexDir}
	r, err := New(Options{Home: home, Now: func() time.Time { return now }, Loc: utc, Getenv: func(k string) string { return env[k] }}).Report()
	must(t, err)
	if r.Claude.Today.Tokens != 5 || r.Codex.Today != 70 || !r.Codex.Found {
		t.Fatalf("claude %+v codex %+v", r.Claude.Today, r.Codex)
	}
}
