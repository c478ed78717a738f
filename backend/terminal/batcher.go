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
	if !b.armed {
		b.armed = true
		b.timer.Reset(b.interval)
	}
}

func (b *batcher) flush() {
	b.mu.Lock()
	out := b.buf
	if len(out) > maxBatch {
		// Keep the newest bytes, from a line start: what ends up on screen.
		out = out[len(out)-maxBatch:]
		if i := bytesIndexNL(out); i >= 0 {
			out = out[i+1:]
		}
	}
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

func bytesIndexNL(b []byte) int {
	for i, c := range b {
		if c == '\n' {
			return i
		}
	}
	return -1
}

// ring keeps the last max bytes written, in a circular buffer.
type ring struct {
	buf  []byte // len == max once allocated
	max  int
	pos  int // next write position
	full bool
}

func (r *ring) write(p []byte) {
	if r.buf == nil {
		r.buf = make([]byte, r.max)
	}
	if len(p) >= r.max {
		copy(r.buf, p[len(p)-r.max:])
		r.pos, r.full = 0, true
		return
	}
	n := copy(r.buf[r.pos:], p)
	if n < len(p) {
		copy(r.buf, p[n:])
		r.full = true
	}
	r.pos = (r.pos + len(p)) % r.max
	if r.pos == 0 && len(p) > 0 {
		r.full = true
	}
}

// bytes returns the kept bytes in order, starting at a line boundary once
// the ring has wrapped, so a replay never begins inside an escape sequence.
func (r *ring) bytes() []byte {
	if !r.full {
		return append([]byte(nil), r.buf[:r.pos]...)
	}
	out := make([]byte, 0, r.max)
	out = append(out, r.buf[r.pos:]...)
	out = append(out, r.buf[:r.pos]...)
	if i := bytesIndexNL(out); i >= 0 {
		out = out[i+1:]
	}
	return out
}
