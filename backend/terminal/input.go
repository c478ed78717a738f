package terminal

import (
	"sync"
	"time"
)

// Input order.
//
// Every call from the web view is served on its own goroutine (Wails on
// Linux), so two chunks of keystrokes sent one after the other can reach
// the PTY the other way round: typed at 1-8 ms per key, "brown" arrived as
// "bnrow" in a third of the lines. The pane view therefore numbers what it
// sends (1, 2, 3 … per view, a view being one xterm instance) and the pane
// writes each view's chunks in that order, whatever order the calls arrive
// in. The view also keeps one call in flight and coalesces what is typed
// meanwhile (frontend/src/lib/paneInput.ts), so the numbers are a guard that
// costs nothing when the calls come in order, and what keeps the order when
// they do not (a reloaded or second view starts its own numbering under a
// new stream name, so it never waits for a number an old view took).
//
// Writers that are not a view — runtime_send, the emulator's replies —
// write whole chunks under the pane's write lock (Pane.Write), so they land
// between two chunks of a person's typing, never inside one.

// gapWait bounds how long a chunk waits for an earlier number that has not
// arrived. Calls are never dropped between the web view and Go, so a gap
// only outlives this when the earlier call failed before it was numbered
// here; the typing then goes on instead of hanging.
const gapWait = 2 * time.Second

// streamIdle is how long a stream nobody typed into is remembered; a view
// that is gone sends nothing more.
const streamIdle = 10 * time.Minute

// inputOrder hands out turns to numbered chunks of each input stream.
type inputOrder struct {
	mu      sync.Mutex
	streams map[string]*inputStream
	now     func() time.Time
	gap     time.Duration // gapWait unless a test sets it
}

type inputStream struct {
	next    uint64                   // the number whose turn it is
	waiting map[uint64]chan struct{} // closed when that number's turn comes
	used    time.Time
}

// turn blocks until chunk seq of stream may be written and returns the
// function that ends its turn (call it once the chunk is written). Chunks
// are numbered from 1. A number already passed (a duplicate, or one that
// came after its gap was skipped) is written at once: late beats lost.
func (o *inputOrder) turn(stream string, seq uint64) (done func()) {
	o.mu.Lock()
	if o.streams == nil {
		o.streams = map[string]*inputStream{}
		if o.now == nil {
			o.now = time.Now
		}
	}
	now := o.now()
	s := o.streams[stream]
	if s == nil {
		o.prune(now)
		s = &inputStream{next: 1, waiting: map[uint64]chan struct{}{}}
		o.streams[stream] = s
	}
	s.used = now
	if seq < s.next {
		o.mu.Unlock()
		return func() {}
	}
	if seq > s.next {
		ch := make(chan struct{})
		s.waiting[seq] = ch
		o.mu.Unlock()
		o.await(s, seq, ch)
		return func() { o.advance(s, seq) }
	}
	o.mu.Unlock()
	return func() { o.advance(s, seq) }
}

// await waits for seq's turn; when the gap before it outlasts gapWait, the
// lowest waiting number is given the turn, so a lost number delays the
// stream once and never stops it.
func (o *inputOrder) await(s *inputStream, seq uint64, ch chan struct{}) {
	gap := o.gap
	if gap <= 0 {
		gap = gapWait
	}
	t := time.NewTimer(gap)
	defer t.Stop()
	for {
		select {
		case <-ch:
			return
		case <-t.C:
			o.mu.Lock()
			low := seq
			for n := range s.waiting {
				low = min(low, n)
			}
			if c, ok := s.waiting[low]; ok && low > s.next {
				s.next = low
				delete(s.waiting, low)
				close(c)
			}
			o.mu.Unlock()
			t.Reset(gap)
		}
	}
}

// advance ends seq's turn and wakes the next number if it is waiting.
func (o *inputOrder) advance(s *inputStream, seq uint64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if seq+1 > s.next {
		s.next = seq + 1
	}
	if c, ok := s.waiting[s.next]; ok {
		delete(s.waiting, s.next)
		close(c)
	}
}

// prune forgets streams idle for streamIdle with nothing waiting.
func (o *inputOrder) prune(now time.Time) {
	for k, s := range o.streams {
		if len(s.waiting) == 0 && now.Sub(s.used) > streamIdle {
			delete(o.streams, k)
		}
	}
}
