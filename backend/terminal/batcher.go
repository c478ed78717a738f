package terminal

import (
	"sync"
	"time"
)

// batcher coalesces PTY output into at most one delivery per interval:
// a burst of reads becomes one UI event per frame, never one per read.
type batcher struct {
	mu       sync.Mutex
	buf      []byte
	seq      uint64 // number of the last delivered batch
	recent   ring   // UI bytes kept for re-attaching a view
	interval time.Duration
	emit     func(seq uint64, b []byte)
	timer    *time.Timer
	armed    bool
	stopped  bool
}

// maxBatch caps one delivery; a 100 MB burst is sent in frame-sized
// pieces the view can draw, the oldest part of an overflowing frame is
// kept in the recent-output ring only.
const maxBatch = 1 << 20

func newBatcher(interval time.Duration, emit func(seq uint64, b []byte)) *batcher {
	b := &batcher{interval: interval, emit: emit}
	b.recent.max = recentBytes
	b.timer = time.AfterFunc(time.Hour, b.flush)
	b.timer.Stop()
	return b
}

// add runs produce (which feeds the emulator and returns UI bytes) under
// the batcher's lock, so a snapshot never sees the screen ahead of the
// batches: everything on screen is either in the snapshot or in a later
// batch, never both.
func (b *batcher) add(produce func() []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	p := produce()
	if len(p) == 0 {
		return
	}
	b.recent.write(p)
	if b.stopped {
		return
	}
	b.buf = append(b.buf, p...)
	if len(b.buf) > maxBatch {
		// Keep the newest bytes: the view only needs what ends up on screen.
		b.buf = append(b.buf[:0], b.buf[len(b.buf)-maxBatch:]...)
	}
	if !b.armed {
		b.armed = true
		b.timer.Reset(b.interval)
	}
}

func (b *batcher) flush() {
	b.mu.Lock()
	out := b.buf
	b.buf = nil
	b.armed = false
	var seq uint64
	if len(out) > 0 {
		b.seq++
		seq = b.seq
	}
	b.mu.Unlock()
	if len(out) > 0 {
		b.emit(seq, out)
	}
}

// snapshot returns render() taken atomically with the batch sequence: the
// caller draws the snapshot and then applies only batches numbered after
// seq. Pending bytes are dropped from the next batch (they are on screen).
func (b *batcher) snapshot(render func(recent []byte) []byte) (seq uint64, out []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = nil
	return b.seq, render(b.recent.bytes())
}

// stop delivers what is pending and refuses further output.
func (b *batcher) stop() {
	b.mu.Lock()
	b.stopped = true
	b.timer.Stop()
	b.mu.Unlock()
	b.flush()
}

// ring keeps the last max bytes written.
type ring struct {
	buf []byte
	max int
}

func (r *ring) write(p []byte) {
	if len(p) >= r.max {
		r.buf = append(r.buf[:0], p[len(p)-r.max:]...)
		return
	}
	if over := len(r.buf) + len(p) - r.max; over > 0 {
		r.buf = append(r.buf[:0], r.buf[over:]...)
	}
	r.buf = append(r.buf, p...)
}

// bytes returns a copy starting at a line boundary when one exists, so a
// replay never begins inside an escape sequence.
func (r *ring) bytes() []byte {
	b := r.buf
	if len(b) == r.max {
		for i, c := range b {
			if c == '\n' {
				b = b[i+1:]
				break
			}
		}
	}
	return append([]byte(nil), b...)
}
