package usage

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/usage/usagetest"
)

// A Codex rollout whose turns carry rate_limits (what the server sends in
// x-codex-primary-* / secondary-* headers, recorded per token_count event):
// the newest event across sessions wins, resets_at and the older
// resets_in_seconds both give the reset time, and tokens are the growth of
// each session's running total.
func TestCodexRateLimits(t *testing.T) {
	home := t.TempDir()
	now := at("2026-12-04T15:30:00Z")
	t1, t2 := at("2026-12-04T10:00:00Z"), at("2026-12-04T15:00:00Z")
	old := usagetest.CodexRollout(home, t1, "01a22a04-0000-7000-8000-000000000001")
	cur := usagetest.CodexRollout(home, t2, "01a22a04-0000-7000-8000-000000000002")
	must(t, usagetest.Append(old, usagetest.CodexTokenCount(t1, 1000, &usagetest.Window{UsedPercent: 10, WindowMinutes: 300, ResetsIn: 3600}, nil)))
	must(t, usagetest.Append(old, usagetest.CodexTokenCount(t1.Add(time.Minute), 1500, &usagetest.Window{UsedPercent: 12, WindowMinutes: 300, ResetsIn: 3540}, nil)))
	must(t, usagetest.Append(old, usagetest.CodexTokenCount(t1.Add(2*time.Minute), 1500, nil, nil))) // a repeated total adds nothing
	must(t, usagetest.Append(cur, usagetest.CodexTokenCount(t2, 2000,
		&usagetest.Window{UsedPercent: 42.5, WindowMinutes: 300, ResetsAt: at("2026-12-04T17:00:00Z").Unix()},
		&usagetest.Window{UsedPercent: 81, WindowMinutes: 10080, ResetsAt: at("2026-12-08T09:00:00Z").Unix()})))
	must(t, usagetest.Append(cur, usagetest.CodexTokenCount(at("2026-12-03T12:00:00Z"), 2600, nil, nil))) // lines out of order in time: limits stay the newest

	var shown []string
	s := New(Options{Home: home, Now: func() time.Time { return now }, Loc: utc, Notify: func(title, body string) { shown = append(shown, title+" / "+body) }})
	r, err := s.Report()
	must(t, err)
	c := r.Codex
	if c.Today != 3500 || c.Week != 4100 || r.Days[5].CodexTokens != 600 {
		t.Errorf("tokens today %d week %d yesterday %d", c.Today, c.Week, r.Days[5].CodexTokens)
	}
	if c.Primary == nil || *c.Primary != (Limit{UsedPercent: 42.5, WindowMinutes: 300, ResetsAt: at("2026-12-04T17:00:00Z").UnixMilli()}) {
		t.Fatalf("primary %+v", c.Primary)
	}
	if c.Secondary == nil || c.Secondary.UsedPercent != 81 || WindowName(c.Secondary.WindowMinutes) != "1-week" {
		t.Fatalf("secondary %+v", c.Secondary)
	}
	if c.PlanType != "plus" || c.RecordedAt != t2.UnixMilli() {
		t.Errorf("plan %q recorded %v", c.PlanType, c.RecordedAt)
	}
	want := "Codex: 81% of your 1-week limit used / It resets on Tue 8 Dec, 09:00."
	if len(shown) != 1 || shown[0] != want {
		t.Fatalf("notifications %q, want [%q]", shown, want)
	}
	// Once per window: a later turn of the same window says nothing more.
	must(t, usagetest.Append(cur, usagetest.CodexTokenCount(t2.Add(10*time.Minute), 2700,
		&usagetest.Window{UsedPercent: 50, WindowMinutes: 300, ResetsAt: at("2026-12-04T17:00:00Z").Unix()},
		&usagetest.Window{UsedPercent: 83, WindowMinutes: 10080, ResetsAt: at("2026-12-08T09:00:01Z").Unix()})))
	r, _ = s.Report()
	if len(shown) != 1 || r.Codex.Secondary.UsedPercent != 83 || r.Codex.Today != 3600 {
		t.Fatalf("after a later turn: %q, %+v", shown, r.Codex)
	}
	// The older field: resets_in_seconds counts from the event.
	lim := (&codexWindow{UsedPercent: 1, ResetsInSeconds: ptr(int64(90))}).limit(t1.UnixMilli())
	if lim.ResetsAt != t1.Add(90*time.Second).UnixMilli() {
		t.Errorf("resets_in_seconds gave %v", time.UnixMilli(lim.ResetsAt).UTC())
	}
}

func ptr[T any](v T) *T { return &v }

// Claude's window notifies once when it passes 80 % of the busiest
// earlier window, and again for the next window.
func TestClaudeWindowNotifiesOnce(t *testing.T) {
	home := t.TempDir()
	p := usagetest.ClaudeSession(home, "-w", "s")
	req := func(id, ts string, in int64) []byte {
		return usagetest.ClaudeLine("s", usagetest.Request{At: at(ts), MsgID: id, ReqID: "r" + id, Model: "claude-sonnet-4-5", In: in})
	}
	must(t, usagetest.Append(p, req("a", "2026-12-03T08:10:00Z", 1000)))
	must(t, usagetest.Append(p, req("b", "2026-12-04T09:05:00Z", 700)))
	now := at("2026-12-04T10:00:00Z")
	var shown []string
	s := New(Options{Home: home, Now: func() time.Time { return now }, Loc: utc, Notify: func(title, body string) { shown = append(shown, title+" / "+body) }})
	s.Report()
	if len(shown) != 0 {
		t.Fatalf("70%% notified: %q", shown)
	}
	must(t, usagetest.Append(p, req("c", "2026-12-04T09:40:00Z", 150)))
	s.Report()
	must(t, usagetest.Append(p, req("d", "2026-12-04T09:50:00Z", 100)))
	s.Report()
	want := "Claude Code: 85% of your 5-hour window used / Against your busiest earlier window. It resets at 14:00."
	if len(shown) != 1 || shown[0] != want {
		t.Fatalf("notifications %q, want [%q]", shown, want)
	}
}

// A restart in the middle of a window already notified does not notify it
// again; the file keeps only windows not yet over.
func TestNotifiedSurvivesARestart(t *testing.T) {
	home := t.TempDir()
	file := filepath.Join(t.TempDir(), "data", "usage-notified.json")
	p := usagetest.ClaudeSession(home, "-w", "s")
	req := func(id, ts string, in int64) []byte {
		return usagetest.ClaudeLine("s", usagetest.Request{At: at(ts), MsgID: id, ReqID: "r" + id, Model: "claude-sonnet-4-5", In: in})
	}
	must(t, usagetest.Append(p, req("a", "2026-12-03T08:10:00Z", 1000)))
	must(t, usagetest.Append(p, req("b", "2026-12-04T09:05:00Z", 900)))
	now := at("2026-12-04T10:00:00Z")
	var shown []string
	start := func() {
		s := New(Options{Home: home, Now: func() time.Time { return now }, Loc: utc, NotifiedFile: file,
			Notify: func(title, body string) { shown = append(shown, title) }})
		s.Report()
	}
	start()
	start() // the app restarted in the same window
	if len(shown) != 1 {
		t.Fatalf("notifications over two starts in one window: %q", shown)
	}
	// The next day's window past 80 % is a new window: notified, and the
	// ended one is no longer kept.
	must(t, usagetest.Append(p, req("c", "2026-12-05T09:05:00Z", 950)))
	now = at("2026-12-05T10:00:00Z")
	start()
	if len(shown) != 2 {
		t.Fatalf("the next window was not notified: %q", shown)
	}
	b, err := os.ReadFile(file)
	must(t, err)
	if strings.Count(string(b), "claude:") != 1 || !strings.Contains(string(b), fmt.Sprint(at("2026-12-05T09:00:00Z").UnixMilli())) {
		t.Fatalf("kept %s, want only the running window", b)
	}
	// A file that is not ours is reported and replaced, never fatal.
	must(t, os.WriteFile(file, []byte("not json"), 0o600))
	start()
	if b, _ := os.ReadFile(file); !json.Valid(b) {
		t.Fatalf("the unreadable file was not replaced: %q", b)
	}
}
