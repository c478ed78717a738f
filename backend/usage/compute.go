package usage

import (
	"fmt"
	"math"
	"time"
)

// Threshold is the used share of a window that raises a notification.
const Threshold = 80.0

// compute turns what was read into the report at now (local time).
func (s *Service) compute(now time.Time) Report {
	loc := now.Location()
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, loc)
	weekStart := today.AddDate(0, 0, -((int(today.Weekday()) + 6) % 7)) // Monday
	r := Report{Now: now.UnixMilli(), WeekStart: weekStart.UnixMilli(), PriceSource: PriceSource, PriceDate: PriceDate}
	first := today.AddDate(0, 0, -6)
	r.Days = make([]Day, 7)
	for i := range r.Days {
		d := first.AddDate(0, 0, i)
		r.Days[i] = Day{Date: d.Format("2006-01-02"), Start: d.UnixMilli()}
	}
	dayOf := func(ms int64) int {
		t := time.UnixMilli(ms).In(loc)
		d := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, loc)
		days := int(math.Round(d.Sub(first).Hours() / 24)) // DST days are 23 or 25 h
		if days < 0 || days > 6 {
			return -1
		}
		return days
	}
	todayMs, weekMs := today.UnixMilli(), weekStart.UnixMilli()

	// Claude: each request once (message id + request id), as ccusage.
	n := 0
	for _, f := range s.claude {
		n += len(f.entries)
	}
	seen := make(map[string]bool, n)
	all := make([]claudeEntry, 0, n)
	for _, f := range s.claude {
		r.Claude.Files++
		r.Skipped += f.skipped
		for _, e := range f.entries {
			if e.key != "" {
				if seen[e.key] {
					continue
				}
				seen[e.key] = true
			}
			all = append(all, e)
			if e.at >= weekMs {
				r.Claude.Week.add(e)
			}
			if e.at >= todayMs {
				r.Claude.Today.add(e)
			}
			if i := dayOf(e.at); i >= 0 {
				var t Totals
				t.add(e)
				r.Days[i].ClaudeTokens += t.Tokens
				r.Days[i].ClaudeCost += t.CostUSD
			}
		}
	}
	r.Claude.Window = window(blocks(all), now.UnixMilli())

	var latest *codexLimits
	for _, f := range s.codex {
		r.Codex.Files++
		r.Skipped += f.skipped
		for _, e := range f.entries {
			if e.at >= weekMs {
				r.Codex.Week += e.tokens
			}
			if e.at >= todayMs {
				r.Codex.Today += e.tokens
			}
			if i := dayOf(e.at); i >= 0 {
				r.Days[i].CodexTokens += e.tokens
			}
		}
		if f.limits != nil && (latest == nil || f.limits.at > latest.at) {
			latest = f.limits
		}
	}
	if latest != nil {
		r.Codex.Primary, r.Codex.Secondary = latest.primary, latest.secondary
		r.Codex.PlanType, r.Codex.RecordedAt = latest.plan, latest.at
	}
	return r
}

// window is the active block, if any, measured against the largest
// earlier block.
func window(bs []block, now int64) *Window {
	if len(bs) == 0 || !bs[len(bs)-1].active(now) {
		return nil
	}
	b := bs[len(bs)-1]
	w := &Window{Start: b.start, ResetsAt: b.end(), LastActivity: b.last}
	for _, e := range b.entries {
		w.Totals.add(e)
	}
	w.ElapsedPercent = 100 * float64(now-b.start) / float64(BlockLength.Milliseconds())
	for _, prev := range bs[:len(bs)-1] {
		var t Totals
		for _, e := range prev.entries {
			t.add(e)
		}
		w.LimitTokens = max(w.LimitTokens, t.Tokens)
	}
	if w.LimitTokens > 0 {
		w.UsedPercent = 100 * float64(w.Totals.Tokens) / float64(w.LimitTokens)
	}
	return w
}

// notify raises one notification per window that passed Threshold.
func (s *Service) notify(r Report) {
	if s.opts.Notify == nil {
		return
	}
	loc := s.opts.Loc
	at := func(ms int64) string { return time.UnixMilli(ms).In(loc).Format("15:04") }
	if w := r.Claude.Window; w != nil && w.LimitTokens > 0 && w.UsedPercent >= Threshold {
		key := fmt.Sprintf("claude:%d", w.Start)
		if !s.notified[key] {
			s.markNotified(key, w.ResetsAt, r.Now)
			s.opts.Notify(fmt.Sprintf("Claude Code: %.0f%% of your 5-hour window used", w.UsedPercent),
				fmt.Sprintf("Against your busiest earlier window. It resets at %s.", at(w.ResetsAt)))
		}
	}
	for _, l := range []struct {
		name string
		lim  *Limit
	}{{"primary", r.Codex.Primary}, {"secondary", r.Codex.Secondary}} {
		if l.lim == nil || l.lim.UsedPercent < Threshold || (l.lim.ResetsAt != 0 && l.lim.ResetsAt <= r.Now) {
			continue
		}
		// A window is known by when it resets (to the minute: the server's
		// figure moves by a second between turns).
		key := fmt.Sprintf("codex:%s:%d", l.name, l.lim.ResetsAt/60000)
		if s.notified[key] {
			continue
		}
		s.markNotified(key, l.lim.ResetsAt, r.Now)
		body := "Codex will stop when it reaches 100%."
		if l.lim.ResetsAt != 0 {
			body = fmt.Sprintf("It resets %s.", resetWords(l.lim.ResetsAt, r.Now, loc))
		}
		s.opts.Notify(fmt.Sprintf("Codex: %.0f%% of your %s limit used", l.lim.UsedPercent, WindowName(l.lim.WindowMinutes)), body)
	}
}

// WindowName says a window's length the way people name them.
func WindowName(minutes int64) string {
	switch {
	case minutes == 0:
		return "usage"
	case minutes%(60*24*7) == 0:
		return fmt.Sprintf("%d-week", minutes/(60*24*7))
	case minutes%(60*24) == 0:
		return fmt.Sprintf("%d-day", minutes/(60*24))
	case minutes%60 == 0:
		return fmt.Sprintf("%d-hour", minutes/60)
	}
	return fmt.Sprintf("%d-minute", minutes)
}

func resetWords(at, now int64, loc *time.Location) string {
	t := time.UnixMilli(at).In(loc)
	n := time.UnixMilli(now).In(loc)
	if t.YearDay() == n.YearDay() && t.Year() == n.Year() {
		return "at " + t.Format("15:04")
	}
	return "on " + t.Format("Mon 2 Jan, 15:04")
}
