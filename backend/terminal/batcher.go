package terminal

import (
	"sync"
	"time"
)

// batcher coalesces PTY output into at most one delivery per interval:
// a burst of reads becomes one UI event per frame, never one per read.
type batcher struct {
	mu  sync.Mutex
	buf []byte
	// bufHint is the size of the last batch: the next batch's buffer starts
	// that big. Grown by append from empty, a 1.2 MB frame cost 6 MB of
	// allocation and copying (append grows big slices by 1.25×).
	bufHint int
	// spare is the buffer of the batch delivered before, emptied: the next
	// batch is written into it instead of a new one. A fresh buffer of a
	// frame's size is zeroed by the runtime before use, and at 100 MB/s
	// that zeroing was a tenth of the pane's CPU. emit must therefore not
	// keep the bytes after it returns (the window marshals them at once).
	spare []byte
	seq   uint64 // number of the last delivered batch
	// recent holds UI bytes kept for re-attaching a view. Batched bytes
	// reach it when their batch goes out (or a snapshot is taken), not per
	// read: it keeps only its last 256 KiB, so writing a frame once costs a
	// fifth of writing every 4 KiB read of a 1.2 MB frame.
	recent   ring
	interval time.Duration
	emit     func(seq uint64, b []byte)
	timer    *time.Timer
	armed    bool
	stopped  bool
	last     time.Time // when the last batch went out
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
	b.addTo(0, func(dst []byte) []byte { return append(dst, produce()...) })
}

// addTo is add for a producer that appends about size UI bytes to dst
// (the pending batch) itself, saving a copy of every byte.
func (b *batcher) addTo(size int, produce func(dst []byte) []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.reserve(size)
	n := len(b.buf)
	b.buf = produce(b.buf)
	if len(b.buf) == n {
		return
	}
	if b.stopped {
		b.recent.write(b.buf[n:])
		b.buf = b.buf[:n]
		return
	}
	if len(b.buf) > 2*maxBatch {
		// Only the newest maxBatch bytes can go out (see flush): keep those
		// and the buffer bounded however late the timer fires.
		b.recent.write(b.buf[:len(b.buf)-maxBatch])
		b.buf = b.buf[:copy(b.buf, b.buf[len(b.buf)-maxBatch:])]
	}
	if !b.armed {
		// One batch per interval at most, but output after a quiet spell
		// (the echo of a key, a prompt) goes out at once instead of a frame
		// later: waiting a whole interval added up to 17 ms to every echo.
		b.armed = true
		b.timer.Reset(max(0, b.interval-time.Since(b.last)))
	}
}

// reserve makes room for n more bytes in the pending batch, doubling.
func (b *batcher) reserve(n int) {
	if b.buf == nil && b.spare != nil {
		b.buf, b.spare = b.spare, nil
	}
	if cap(b.buf)-len(b.buf) >= n {
		return
	}
	c := max(2*cap(b.buf), len(b.buf)+n, min(b.bufHint, 2*maxBatch))
	nb := make([]byte, len(b.buf), c)
	copy(nb, b.buf)
	b.buf = nb
}

func (b *batcher) flush() {
	b.mu.Lock()
	full := b.buf
	out := full
	b.recent.write(out)
	b.bufHint = len(out) + len(out)/4
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
		b.last = time.Now()
	}
	b.mu.Unlock()
	if len(out) > 0 {
		b.emit(seq, out)
	}
	if cap(full) > 0 {
		b.mu.Lock()
		b.spare = full[:0]
		b.mu.Unlock()
	}
}

// snapshot returns render() taken atomically with the batch sequence: the
// caller draws the snapshot and then applies only batches numbered after
// seq. Pending bytes are dropped from the next batch (they are on screen).
// wrapped says the ring has dropped its oldest output.
func (b *batcher) snapshot(render func(recent []byte, wrapped bool) []byte) (seq uint64, out []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.recent.write(b.buf)
	b.buf = b.buf[:0]
	return b.seq, render(b.recent.bytes(), b.recent.full)
}

// recentCopy returns the recent output and the pending batch without
// taking the batch from the views, with a number that changes whenever
// more output arrived (the bytes written so far).
func (b *batcher) recentCopy() (gen uint64, data []byte, wrapped bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.genLocked(), append(b.recent.bytes(), b.buf...), b.recent.full
}

// generation is recentCopy's gen without the copy.
func (b *batcher) generation() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.genLocked()
}

// genLocked counts every byte the pane ever output (b.mu held).
func (b *batcher) genLocked() uint64 { return b.recent.total + uint64(len(b.buf)) }

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
	// total counts every byte ever written.
	total uint64
}

func (r *ring) write(p []byte) {
	r.total += uint64(len(p))
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
