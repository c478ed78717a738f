package usage

import (
	"cmp"
	"slices"
	"time"
)

// BlockLength is the length of Claude's usage window.
const BlockLength = 5 * time.Hour

// block is one 5-hour window of Claude use, as ccusage computes it: it
// starts at its first request's time floored to the hour (UTC), lasts five
// hours, and a request more than five hours after the block's start or
// after the previous request starts a new block.
type block struct {
	start, last int64 // epoch ms: the floored start, the last request
	entries     []claudeEntry
}

func (b block) end() int64 { return b.start + BlockLength.Milliseconds() }

// active is ccusage's rule: the last request is under five hours ago and
// the block has not ended.
func (b block) active(now int64) bool {
	return now-b.last < BlockLength.Milliseconds() && now < b.end()
}

// blocks splits entries into 5-hour blocks, oldest first. It sorts
// entries in place, and each block's entries are a part of it (a first
// open puts tens of thousands of requests through here: no copies).
func blocks(entries []claudeEntry) []block {
	slices.SortFunc(entries, func(a, b claudeEntry) int { return cmp.Compare(a.at, b.at) })
	var out []block
	five := BlockLength.Milliseconds()
	from := 0
	for i, e := range entries {
		n := len(out)
		if n == 0 || e.at-out[n-1].start > five || e.at-out[n-1].last > five {
			if n > 0 {
				out[n-1].entries = entries[from:i:i]
			}
			out = append(out, block{start: floorHour(e.at), last: e.at})
			from = i
			n++
		}
		out[n-1].last = e.at
	}
	if n := len(out); n > 0 {
		out[n-1].entries = entries[from:]
	}
	return out
}

func floorHour(ms int64) int64 {
	h := time.Hour.Milliseconds()
	return ms - ((ms%h)+h)%h
}
