package usage

import (
	"testing"
	"time"
)

// The 5-hour block rule, as ccusage computes it.
func TestBlocks(t *testing.T) {
	base := at("2026-12-04T09:47:00Z")
	m := func(d time.Duration) claudeEntry { return claudeEntry{at: base.Add(d).UnixMilli(), in: 1} }
	hour := func(s string) int64 { return at(s).UnixMilli() }
	for _, tc := range []struct {
		name    string
		entries []claudeEntry
		starts  []int64
		counts  []int
	}{
		{"start floored to the hour", []claudeEntry{m(0)}, []int64{hour("2026-12-04T09:00:00Z")}, []int{1}},
		{"order does not matter", []claudeEntry{m(2 * time.Hour), m(0), m(time.Hour)}, []int64{hour("2026-12-04T09:00:00Z")}, []int{3}},
		// 09:00 + 5 h = 14:00 exactly: still the same block (ccusage's ">").
		{"a request at the block's end stays in it", []claudeEntry{m(0), m(4*time.Hour + 13*time.Minute)}, []int64{hour("2026-12-04T09:00:00Z")}, []int{2}},
		{"a request past the block's end starts a new one, floored", []claudeEntry{m(0), m(4*time.Hour + 14*time.Minute)}, []int64{hour("2026-12-04T09:00:00Z"), hour("2026-12-04T14:00:00Z")}, []int{1, 1}},
		{"a gap of five hours is not a new block by itself", []claudeEntry{m(-13 * time.Minute), m(4*time.Hour + 47*time.Minute)}, []int64{hour("2026-12-04T09:00:00Z"), hour("2026-12-04T14:00:00Z")}, []int{1, 1}},
		{"steady use: every five hours from the first", []claudeEntry{m(0), m(3 * time.Hour), m(6 * time.Hour), m(9 * time.Hour), m(12 * time.Hour)},
			[]int64{hour("2026-12-04T09:00:00Z"), hour("2026-12-04T15:00:00Z"), hour("2026-12-04T21:00:00Z")}, []int{2, 2, 1}},
		{"nothing", nil, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bs := blocks(tc.entries)
			if len(bs) != len(tc.starts) {
				t.Fatalf("%d blocks, want %d", len(bs), len(tc.starts))
			}
			for i, b := range bs {
				if b.start != tc.starts[i] || len(b.entries) != tc.counts[i] {
					t.Errorf("block %d starts %v with %d requests, want %v with %d", i, time.UnixMilli(b.start).UTC(), len(b.entries), time.UnixMilli(tc.starts[i]).UTC(), tc.counts[i])
				}
			}
		})
	}
}

// A window is current while its last request is under five hours old and
// it has not ended; it is measured against the busiest earlier window.
func TestWindow(t *testing.T) {
	e := func(s string, in int64) claudeEntry { return claudeEntry{at: at(s).UnixMilli(), in: in} }
	bs := blocks([]claudeEntry{e("2026-12-03T08:10:00Z", 1000), e("2026-12-03T20:00:00Z", 400), e("2026-12-04T09:05:00Z", 850)})
	for _, tc := range []struct {
		now  string
		want bool
	}{
		{"2026-12-04T09:30:00Z", true},
		{"2026-12-04T13:59:59Z", true},
		{"2026-12-04T14:00:00Z", false}, // the block ended
	} {
		w := window(bs, at(tc.now).UnixMilli())
		if (w != nil) != tc.want {
			t.Fatalf("at %s window %+v, want current %v", tc.now, w, tc.want)
		}
	}
	w := window(bs, at("2026-12-04T10:30:00Z").UnixMilli())
	if w.LimitTokens != 1000 || w.UsedPercent != 85 || w.ElapsedPercent != 30 || w.Totals.Tokens != 850 {
		t.Fatalf("window %+v", w)
	}
	if w := window(blocks([]claudeEntry{e("2026-12-04T09:05:00Z", 5)}), at("2026-12-04T10:00:00Z").UnixMilli()); w == nil || w.LimitTokens != 0 || w.UsedPercent != 0 {
		t.Fatalf("a first window has no limit to measure against: %+v", w)
	}
}
