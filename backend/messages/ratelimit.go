package messages

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// DefaultPostsPerMinute bounds how often one assistant connection (or one
// run) may post. A person reads a channel; 20 posts a minute is already
// more than anyone follows, and without a bound one connection stored 300
// posts of 16 KB in 3.4 s.
const DefaultPostsPerMinute = 20

// maxReplyTo bounds reply_to, which names a message id (ids are 19 bytes).
const maxReplyTo = 100

// PostLimiter keeps the post-rate window: each author's posts of the last
// minute. A Store keeps the window in its process unless its Backend is a
// PostLimiter too: the team server's PostgreSQL backend is, so every
// replica counts the same posts and a connection cannot get the limit
// once per replica.
type PostLimiter interface {
	// TakePost records a post by author at now, unless author already
	// posted limit times in the minute before now: then it records nothing
	// and returns false and how long until the oldest of those posts
	// leaves the window.
	TakePost(ctx context.Context, author string, now time.Time, limit int) (bool, time.Duration, error)
}

// SlideWindow is the rule every PostLimiter applies to one author's post
// times (oldest first): it drops the times a minute or more before now,
// then either appends now (ok) or, when limit times remain, says how long
// until the oldest leaves. kept is what to store for the author.
func SlideWindow(times []time.Time, now time.Time, limit int) (kept []time.Time, ok bool, wait time.Duration) {
	cut := now.Add(-time.Minute)
	kept = make([]time.Time, 0, len(times)+1)
	for _, at := range times {
		if at.After(cut) {
			kept = append(kept, at)
		}
	}
	if len(kept) >= limit {
		return kept, false, kept[0].Sub(cut)
	}
	return append(kept, now), true, 0
}

// postWindow is the PostLimiter kept in this process (the desktop: one
// process serves every connection).
type postWindow struct {
	mu   sync.Mutex
	seen map[string][]time.Time
}

var _ PostLimiter = (*postWindow)(nil)

func (w *postWindow) TakePost(_ context.Context, author string, now time.Time, limit int) (bool, time.Duration, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.seen == nil {
		w.seen = map[string][]time.Time{}
	}
	kept, ok, wait := SlideWindow(w.seen[author], now, limit)
	w.seen[author] = kept
	// Forget authors who stopped posting, so the map does not grow.
	cut := now.Add(-time.Minute)
	for a, ts := range w.seen {
		if len(ts) == 0 || !ts[len(ts)-1].After(cut) {
			delete(w.seen, a)
		}
	}
	return ok, wait, nil
}

func rateRefusal(limit int, wait time.Duration) string {
	secs := int(wait/time.Second) + 1
	return fmt.Sprintf("a connection may post at most %d messages a minute and this one already has; nothing was posted: wait %d s and post again, or put more in one message", limit, secs)
}
