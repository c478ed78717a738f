package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/usage"
	"github.com/osfoundry/desktop/backend/usage/usagetest"
)

func init() {
	registerBench(&bench{
		name: "usage",
		help: "Usage screen: first open and refresh over a generated home of 1,000 Claude Code sessions and Codex rollouts",
		run:  benchUsage,
	})
}

// usageTargetMs is the target for the Usage screen's first open on
// a home with 1,000 sessions.
const usageTargetMs = 300

func benchUsage(env *Env, args []string) int {
	fs := flag.NewFlagSet("bench usage", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	sessions := fs.Int("sessions", 1000, "Claude Code sessions")
	requests := fs.Int("requests", 30, "assistant requests per session (each after a user turn)")
	answer := fs.Int("answer", 1200, "bytes of answer text in each assistant record")
	result := fs.Int("result", 2000, "bytes of tool result in each user record")
	rollouts := fs.Int("rollouts", 200, "Codex rollouts")
	runs := fs.Int("runs", 5, "first opens measured (a new service each, files in the page cache)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	home, err := os.MkdirTemp("", "osfoundry-bench-usage-")
	if err != nil {
		fmt.Fprintf(env.Stderr, "osfoundry-bench usage: creating a scratch folder: %v\n", err)
		return 1
	}
	defer os.RemoveAll(home)
	now := time.Now()
	wantClaude, wantCodex, bytes, err := writeUsageHome(home, now, *sessions, *requests, *answer, *result, *rollouts)
	if err != nil {
		fmt.Fprintf(env.Stderr, "osfoundry-bench usage: %v\n", err)
		return 1
	}
	fmt.Fprintf(env.Stderr, "generated %d Claude Code sessions and %d Codex rollouts (%.0f MB)\n", *sessions, *rollouts, float64(bytes)/1e6)

	var first, cpu []time.Duration
	var svc *usage.Service
	for i := 0; i < *runs; i++ {
		svc = usage.New(usage.Options{Home: home, Now: func() time.Time { return now }})
		t0, c0 := time.Now(), selfCPU()
		r, err := svc.Report()
		first = append(first, time.Since(t0))
		cpu = append(cpu, selfCPU()-c0)
		if err != nil {
			fmt.Fprintf(env.Stderr, "osfoundry-bench usage: %v\n", err)
			return 1
		}
		if r.Claude.Week.Tokens != wantClaude || r.Codex.Week != wantCodex {
			fmt.Fprintf(env.Stderr, "osfoundry-bench usage: wrong figures: Claude %d tokens (want %d), Codex %d (want %d)\n", r.Claude.Week.Tokens, wantClaude, r.Codex.Week, wantCodex)
			return 1
		}
	}
	t0, c0 := time.Now(), selfCPU()
	if _, err := svc.Report(); err != nil {
		fmt.Fprintf(env.Stderr, "osfoundry-bench usage: %v\n", err)
		return 1
	}
	idle, idleCPU := time.Since(t0), selfCPU()-c0
	// One request appended to ten sessions: the refresh reads only those bytes.
	for i := 0; i < 10; i++ {
		p := usagetest.ClaudeSession(home, fmt.Sprintf("-work-p%d", i%20), fmt.Sprintf("s%04d", i))
		if err := usagetest.Append(p, usagetest.ClaudeLine("s", usagetest.Request{At: now, MsgID: fmt.Sprintf("msg_new_%d", i), ReqID: "r", Model: "claude-sonnet-4-5", In: 1, Pad: *answer})); err != nil {
			fmt.Fprintf(env.Stderr, "osfoundry-bench usage: %v\n", err)
			return 1
		}
	}
	t0 = time.Now()
	r, err := svc.Report()
	appended := time.Since(t0)
	if err != nil || r.Claude.Week.Tokens != wantClaude+10 {
		fmt.Fprintf(env.Stderr, "osfoundry-bench usage: the refresh missed appended requests (%v)\n", err)
		return 1
	}
	med := median(first)
	verdict := "meets"
	if med.Milliseconds() > usageTargetMs {
		verdict = "misses"
	}
	fmt.Fprintf(env.Stdout, "\nUsage over %d Claude Code sessions (%d requests each) and %d Codex rollouts, %.0f MB\n\n", *sessions, *requests, *rollouts, float64(bytes)/1e6)
	printTable(env, []string{"figure", "osFoundry", "target"}, [][]string{
		{"usage view first open (median of " + fmt.Sprint(*runs) + ")", msec(med) + " (" + verdict + ")", fmt.Sprintf("≤ %d ms", usageTargetMs)},
		{"first open, slowest", msec(slowest(first)), ""},
		{"first open, CPU time (all cores, median)", msec(median(cpu)), ""},
		{"refresh, nothing appended", msec(idle) + " (CPU " + msec(idleCPU) + ")", ""},
		{"refresh, 10 sessions appended", msec(appended), ""},
	})
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Fprintf(env.Stdout, "\nload average while measuring: %s(wall times stretch on a busy machine; CPU time does not)\n", strings.SplitAfterN(string(b), " ", 2)[0])
	}
	return 0
}

func msec(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

func slowest(ds []time.Duration) time.Duration {
	var m time.Duration
	for _, d := range ds {
		m = max(m, d)
	}
	return m
}

// writeUsageHome writes sessions spread over the last six days, each a
// user turn with a tool result and an assistant answer per request, and
// returns the tokens the week holds.
func writeUsageHome(home string, now time.Time, sessions, requests, answer, result, rollouts int) (claude, codex, size int64, err error) {
	loc := now.Location()
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, loc)
	weekStart := day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7))
	text := strings.Repeat("ok\\n", result/4)
	for s := 0; s < sessions; s++ {
		var b []byte
		start := now.Add(-time.Duration(s%144) * time.Hour)
		for q := 0; q < requests; q++ {
			at := start.Add(time.Duration(q) * 20 * time.Second)
			if at.After(now) {
				at = now
			}
			b = append(b, usagetest.UserLine("s", at, text)...)
			req := usagetest.Request{At: at, MsgID: fmt.Sprintf("msg_%d_%d", s, q), ReqID: fmt.Sprintf("req_%d_%d", s, q),
				Model: "claude-sonnet-4-5-20250929", In: 3, Out: 200, CW: 500, CR: 20000, Pad: answer}
			b = append(b, usagetest.ClaudeLine("s", req)...)
			if !at.Before(weekStart) {
				claude += 3 + 200 + 500 + 20000
			}
		}
		if err := usagetest.Append(usagetest.ClaudeSession(home, fmt.Sprintf("-work-p%d", s%20), fmt.Sprintf("s%04d", s)), b); err != nil {
			return 0, 0, 0, err
		}
		size += int64(len(b))
	}
	for c := 0; c < rollouts; c++ {
		var b []byte
		start := now.Add(-time.Duration(c%144) * time.Hour)
		for q := 1; q <= 20; q++ {
			at := start.Add(time.Duration(q) * 10 * time.Second)
			if at.After(now) {
				at = now
			}
			b = append(b, usagetest.CodexTokenCount(at, int64(q)*12000, &usagetest.Window{UsedPercent: 40, WindowMinutes: 300, ResetsAt: now.Add(time.Hour).Unix()}, nil)...)
			if !at.Before(weekStart) {
				codex += 12000
			}
		}
		path := usagetest.CodexRollout(home, start, fmt.Sprintf("01a22a04-0000-7000-8000-%012d", c))
		if err := usagetest.Append(path, b); err != nil {
			return 0, 0, 0, err
		}
		size += int64(len(b))
	}
	return claude, codex, size, nil
}
