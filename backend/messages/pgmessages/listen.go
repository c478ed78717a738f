package pgmessages

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// notifyChannel is the PostgreSQL notification channel posts are
// announced on (migration 00002).
const notifyChannel = "osf_messages"

// Posted names a committed post: its channel and seq.
type Posted struct {
	Channel string
	Seq     int64
}

// Listen calls onPost with every post committed in the database, by any
// replica, until ctx ends; within a channel, in seq order. It holds one
// connection of the pool. When that connection drops it connects again
// and calls onGap: posts committed meanwhile were not announced, so a
// follower reads its channels again from the last seq it saw. It returns
// ctx's error, or an error when it cannot listen at all.
func (b *Backend) Listen(ctx context.Context, onPost func(Posted), onGap func()) error {
	const shortest, longest = 100 * time.Millisecond, 5 * time.Second
	first, wait := true, shortest
	for {
		err := b.listenOnce(ctx, onPost, func() {
			if !first && onGap != nil {
				onGap()
			}
			first, wait = false, shortest
		})
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if first {
			return fmt.Errorf("listening for posts: %w", err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, longest)
	}
}

// listenOnce listens on one connection until it fails; listening calls
// ready once LISTEN is in place.
func (b *Backend) listenOnce(ctx context.Context, onPost func(Posted), ready func()) error {
	conn, err := b.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("taking a connection: %w", err)
	}
	// A connection that listened is closed, not returned to the pool
	// still subscribed.
	defer conn.Release()
	defer conn.Conn().Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+notifyChannel); err != nil {
		return fmt.Errorf("subscribing: %w", err)
	}
	ready()
	for {
		n, err := conn.Conn().WaitForNotification(ctx)
		if err != nil {
			return fmt.Errorf("waiting for posts: %w", err)
		}
		p, err := parsePosted(n.Payload)
		if err != nil {
			continue // not ours: another writer used the channel name
		}
		onPost(p)
	}
}

func parsePosted(payload string) (Posted, error) {
	ch, seq, ok := strings.Cut(payload, " ")
	if !ok || ch == "" {
		return Posted{}, errors.New("not a post")
	}
	n, err := strconv.ParseInt(seq, 10, 64)
	if err != nil {
		return Posted{}, fmt.Errorf("reading seq: %w", err)
	}
	return Posted{Channel: ch, Seq: n}, nil
}
