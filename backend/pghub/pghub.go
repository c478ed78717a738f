// Package pghub tells the readers on one team server replica that
// something of theirs changed in PostgreSQL, whichever replica committed
// it: a writer sends NOTIFY <channel>, '<key>' in its transaction (so it
// is heard at commit), the hub LISTENs on one connection and wakes the
// subscribers of that key, and Stream turns that into a server-sent event
// stream for a desktop or a page.
//
// A subscriber holds one "something changed" at most: a slow reader is
// never waited for; it reads everything newer than what it has anyway.
package pghub

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Hub fans one NOTIFY channel out to subscribers by key.
type Hub struct {
	channel string
	mu      sync.Mutex
	subs    map[string]map[chan struct{}]struct{}
	up      atomic.Bool
}

// New is a hub for channel (a PostgreSQL identifier the caller chose).
func New(channel string) *Hub {
	return &Hub{channel: channel, subs: map[string]map[chan struct{}]struct{}{}}
}

// Subscribe returns a channel that receives after every change of key,
// and the function that ends the subscription.
func (h *Hub) Subscribe(key string) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	h.mu.Lock()
	if h.subs[key] == nil {
		h.subs[key] = map[chan struct{}]struct{}{}
	}
	h.subs[key][ch] = struct{}{}
	h.mu.Unlock()
	return ch, func() {
		h.mu.Lock()
		delete(h.subs[key], ch)
		if len(h.subs[key]) == 0 {
			delete(h.subs, key)
		}
		h.mu.Unlock()
	}
}

// Announce wakes key's subscribers on this replica.
func (h *Hub) Announce(key string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs[key] {
		select {
		case ch <- struct{}{}:
		default: // one already waits to be read
		}
	}
}

// wakeAll wakes everyone (after a gap in listening, when changes may have
// been committed unannounced).
func (h *Hub) wakeAll() {
	h.mu.Lock()
	keys := make([]string, 0, len(h.subs))
	for k := range h.subs {
		keys = append(keys, k)
	}
	h.mu.Unlock()
	for _, k := range keys {
		h.Announce(k)
	}
}

// Listening says whether the hub hears the database now (for /readyz).
func (h *Hub) Listening() bool { return h.up.Load() }

// Listen holds one connection with LISTEN until ctx ends, connecting again
// (and waking every subscriber) when it drops. It returns once the hub
// listens, or with why the first attempt could not; it goes on in the
// background either way.
func (h *Hub) Listen(ctx context.Context, pool *pgxpool.Pool, log *slog.Logger) error {
	first := make(chan error, 1)
	go h.listen(ctx, pool, log, first)
	select {
	case err := <-first:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (h *Hub) listen(ctx context.Context, pool *pgxpool.Pool, log *slog.Logger, first chan<- error) {
	wait := 100 * time.Millisecond
	tell := func(err error) {
		if first != nil {
			first <- err
			first = nil
		}
	}
	for {
		err := h.listenOnce(ctx, pool, func() { wait = 100 * time.Millisecond; tell(nil) })
		h.up.Store(false)
		tell(fmt.Errorf("listening on %s: %w", h.channel, err))
		if ctx.Err() != nil {
			return
		}
		log.Warn("listening for changes", "channel", h.channel, "error", err.Error())
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, 5*time.Second)
	}
}

func (h *Hub) listenOnce(ctx context.Context, pool *pgxpool.Pool, ready func()) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("taking a connection: %w", err)
	}
	// A connection that listened is closed, not returned to the pool subscribed.
	defer conn.Release()
	defer conn.Conn().Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+h.channel); err != nil {
		return fmt.Errorf("subscribing: %w", err)
	}
	h.up.Store(true)
	ready()
	h.wakeAll()
	for {
		n, err := conn.Conn().WaitForNotification(ctx)
		if err != nil {
			return fmt.Errorf("waiting for changes: %w", err)
		}
		if n.Payload != "" {
			h.Announce(n.Payload)
		}
	}
}

// KeepAlive is how often an idle stream sends a comment, so proxies keep
// it open and a reader that went away is noticed.
const KeepAlive = 20 * time.Second

// Stream answers r with a server-sent event stream: event with data at
// once (read what changed while away) and after every change of key,
// until the reader goes or the replica drains. Check who may read before.
func (h *Hub) Stream(w http.ResponseWriter, r *http.Request, key, event, data string) {
	fl, can := w.(http.Flusher)
	if !can {
		http.Error(w, "streaming is not supported here", http.StatusInternalServerError)
		return
	}
	ch, stop := h.Subscribe(key)
	defer stop()
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Accel-Buffering", "no") // nginx: pass events on at once
	w.WriteHeader(http.StatusOK)
	send := func() error {
		_, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, data)
		fl.Flush()
		return err
	}
	if send() != nil {
		return
	}
	tick := time.NewTicker(KeepAlive)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-ch:
			if send() != nil {
				return
			}
		case <-tick.C:
			if _, err := fmt.Fprint(w, ": still here\n\n"); err != nil {
				return
			}
			fl.Flush()
		}
	}
}

// HideNoContent lets an API wrapper write a refusal but swallows its 204
// on success, which would end a stream before it starts.
type HideNoContent struct{ http.ResponseWriter }

// WriteHeader passes every status but 204 on.
func (h HideNoContent) WriteHeader(code int) {
	if code == http.StatusNoContent {
		return
	}
	h.ResponseWriter.WriteHeader(code)
}
