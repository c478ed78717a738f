package inventory

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// Reading limits. HeadLines/LineCap/TailBytes are the seed's measured
// figures: on 40 real transcripts the first cwd was within line 6, no head
// line over 256 KiB, and a title record inside the last 512 KiB of every file.
// seekData is SEEK_DATA (Linux, macOS and the BSDs accept it as whence 3;
// elsewhere the Seek fails and the hole is read like any bytes).
const seekData = 3

const (
	HeadLines = 80
	LineCap   = 256 << 10
	TailBytes = 512 << 10
	// TranscriptLineCap bounds one transcript row read for the detail pane:
	// a pasted image is one multi-megabyte line that the pane shows as
	// "[skipped N MB line]" instead of holding it in memory.
	TranscriptLineCap = 8 << 20
	firstRead         = 16 << 10
)

// openRegular opens path for reading only if it is a regular file, so a
// FIFO or device planted among session files can never block a scan. It
// opens with readFlags: where that holds O_NONBLOCK, Go takes the
// descriptor as it is instead of switching it to non-blocking and back
// around a refused poller registration (four system calls per file, a
// tenth of a cold index); reads of a regular file never block or fail
// with EAGAIN either way.
func openRegular(path string) (*os.File, os.FileInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("opening %s: not a regular file", path)
	}
	f, err := os.OpenFile(path, readFlags, 0)
	if err != nil {
		return nil, nil, err
	}
	return f, st, nil
}

// lineReader yields lines of at most max bytes; longer lines are skipped
// without being held in memory and reported with their length.
type lineReader struct {
	r    io.Reader
	buf  []byte
	beg  int
	end  int
	max  int
	off  int64 // file offset of buf[beg]
	eof  bool
	line []byte
	// f, when set, lets skipLong jump over holes of a sparse file (a run
	// of NUL bytes is never JSON) with SEEK_DATA instead of reading them.
	f    *os.File
	rpos int64 // file offset of buf[end]
}

// The buffer starts at firstRead bytes and doubles up to max+1 only while
// a line does not fit: a head read needs a few records, and reading (and
// zeroing) a 256 KiB buffer per transcript cost a cold index of the seed
// corpus 10 MB of reads for a few KB used.
func newLineReader(r io.Reader, max int, start int64) *lineReader {
	var buf []byte
	if max+1 >= firstRead {
		buf = getLineBuf(firstRead)
	} else {
		buf = make([]byte, max+1)
	}
	lr := &lineReader{r: r, buf: buf, max: max, off: start, rpos: start}
	if f, ok := r.(*os.File); ok {
		lr.f = f
	}
	return lr
}

// release hands the reader's buffer back for the next file's reader; the
// reader and the lines it returned must not be used after it.
func (l *lineReader) release() {
	putLineBuf(l.buf)
	l.buf = nil
}

// lineBufs recycle line buffers of firstRead << i bytes, the sizes a
// reader's buffer takes as it doubles for a long line. A cold index of
// the seed corpus takes two first buffers per file, and every Codex
// rollout grows one for its 20 KB meta line; allocating and clearing them
// was the largest cost left after the reads themselves. Longer buffers
// (lines over a few hundred KB) are rare and left to the collector.
var lineBufs [5]sync.Pool

// lineBufClass returns i for a size of firstRead << i, else -1.
func lineBufClass(n int) int {
	for i := range lineBufs {
		if n == firstRead<<i {
			return i
		}
	}
	return -1
}

// getLineBuf returns a buffer of n bytes (its contents are garbage).
func getLineBuf(n int) []byte {
	if i := lineBufClass(n); i >= 0 {
		if b, ok := lineBufs[i].Get().(*[]byte); ok {
			return *b
		}
	}
	return make([]byte, n)
}

// putLineBuf recycles b if its capacity is one of the pooled sizes.
func putLineBuf(b []byte) {
	if i := lineBufClass(cap(b)); i >= 0 {
		b = b[:cap(b)]
		lineBufs[i].Put(&b)
	}
}

// next returns the next line without its newline, its start offset, and
// skipped>0 when the line was longer than max (then line is nil).
// ok is false at end of input. A last line without a newline is returned.
func (l *lineReader) next() (line []byte, at int64, skipped int64, ok bool) {
	for {
		if i := bytes.IndexByte(l.buf[l.beg:l.end], '\n'); i >= 0 {
			line = l.buf[l.beg : l.beg+i]
			at = l.off
			l.beg += i + 1
			l.off += int64(i + 1)
			return line, at, 0, true
		}
		if l.end-l.beg > l.max {
			return l.skipLong()
		}
		if l.beg == 0 && l.end == len(l.buf) && len(l.buf) < l.max+1 {
			nb := getLineBuf(min(2*len(l.buf), l.max+1))
			l.end = copy(nb, l.buf[:l.end])
			putLineBuf(l.buf)
			l.buf = nb
		}
		if l.eof {
			if l.beg < l.end {
				line = l.buf[l.beg:l.end]
				at = l.off
				l.off += int64(l.end - l.beg)
				l.beg = l.end
				return line, at, 0, true
			}
			return nil, l.off, 0, false
		}
		l.fill()
	}
}

func (l *lineReader) fill() {
	if l.beg > 0 {
		copy(l.buf, l.buf[l.beg:l.end])
		l.end -= l.beg
		l.beg = 0
	}
	var n int
	var err error
	if l.f != nil {
		// Read at rpos: no seek before the first read, and skipLong's
		// SEEK_DATA only has to say where the data resumes.
		n, err = l.f.ReadAt(l.buf[l.end:], l.rpos)
	} else {
		n, err = l.r.Read(l.buf[l.end:])
	}
	l.end += n
	l.rpos += int64(n)
	if err != nil || (n == 0 && l.end == len(l.buf)) {
		l.eof = err != nil
	}
}

// skipLong discards the rest of an over-long line, reading it in chunks.
func (l *lineReader) skipLong() ([]byte, int64, int64, bool) {
	at := l.off
	var n int64
	for {
		if i := bytes.IndexByte(l.buf[l.beg:l.end], '\n'); i >= 0 {
			n += int64(i)
			l.beg += i + 1
			l.off = at + n + 1
			return nil, at, n, true
		}
		n += int64(l.end - l.beg)
		zeros := l.f != nil && l.end-l.beg == len(l.buf) && allNUL(l.buf[l.beg:l.end])
		l.beg, l.end = 0, 0
		if zeros {
			if next, err := l.f.Seek(l.rpos, seekData); err == nil && next > l.rpos {
				n += next - l.rpos
				l.rpos = next
			} else if err != nil {
				// ENXIO: only a hole up to the end of the file.
				if end, err2 := l.f.Seek(0, io.SeekEnd); err2 == nil && end > l.rpos {
					n += end - l.rpos
					l.rpos = end
				}
			}
		}
		if l.eof {
			l.off = at + n
			return nil, at, n, true
		}
		l.fill()
	}
}

// readHead calls fn with up to n lines of at most LineCap bytes from the
// start of f; over-long lines count as lines but are not passed.
func readHead(f *os.File, n int, fn func(line []byte) bool) error {
	lr := newLineReader(f, LineCap, 0)
	defer lr.release()
	for i := 0; i < n; i++ {
		line, _, skipped, ok := lr.next()
		if !ok {
			return nil
		}
		if skipped > 0 {
			continue
		}
		if !fn(line) {
			return nil
		}
	}
	return nil
}

// readTailBackward calls fn with the complete lines of the last TailBytes of
// f, newest first, reading backward in growing chunks so that the usual case
// (everything wanted is in the last few records) reads a few kilobytes.
// The first piece of the tail window is a cut line and is never passed.
// The chunks go into one recycled window from its end, so reading further
// back neither copies what was read nor allocates (a cold index of Codex
// rollouts, whose last turn_context can sit far back, spent most of its
// time growing buffers); fn must not keep line after it returns.
func readTailBackward(f *os.File, size int64, fn func(line []byte) bool) error {
	if size <= 0 {
		return nil
	}
	limit := min(int64(TailBytes), size)
	win := tailWindows.Get().(*[]byte)
	defer tailWindows.Put(win)
	buf := (*win)[:limit]
	want := min(int64(firstRead), limit)
	var have int64 // the last `have` bytes of the file are in buf[limit-have:]
	end := limit   // lines before buf[end] have not been passed to fn yet
	for {
		if _, err := f.ReadAt(buf[limit-want:limit-have], size-want); err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("reading tail: %w", err)
		}
		have = want
		lo := limit - have
		whole := have == size // the window reaches the start of the file
		for end > lo {
			i := lastNewline(buf[lo:end])
			if i < 0 && !whole {
				break // the rest may be a cut line: read more first
			}
			start := lo + int64(i) + 1 // i = -1: the file's first line
			if line := buf[start:end]; len(bytes.TrimSpace(line)) > 0 && !fn(line) {
				return nil
			}
			end = max(start-1, lo)
		}
		if have >= limit {
			return nil // a cut first piece at the window edge is dropped
		}
		want = min(want*4, limit)
	}
}

// lastNewline is bytes.LastIndexByte(b, '\n'). The standard one steps back
// one byte at a time (it has no vector form), and on a cold index of the
// seed corpus it was the largest single cost: a Codex rollout whose lines
// carry no time is walked back through its whole tail window. This one
// tests eight bytes at a time near the end, where short records end, then
// hands blocks of doubling size to the vectorised forward IndexByte and
// keeps the block's last match, so a 2 KB record costs a few calls.
func lastNewline(b []byte) int {
	const ones, highs, newlines = 0x0101010101010101, 0x8080808080808080, 0x0a0a0a0a0a0a0a0a
	i := len(b)
	near := max(i-128, 0)
	for i-8 >= near {
		// A zero byte of x is a '\n' of b; the test may also flag a byte
		// above a real match (a borrow), so the match is confirmed bytewise.
		x := binary.LittleEndian.Uint64(b[i-8:i]) ^ newlines
		if (x-ones)&^x&highs != 0 {
			for k := i - 1; k >= i-8; k-- {
				if b[k] == '\n' {
					return k
				}
			}
		}
		i -= 8
	}
	for i > near {
		i--
		if b[i] == '\n' {
			return i
		}
	}
	for block := 256; i > 0; block = min(block*2, 8192) {
		s := max(i-block, 0)
		blk := b[s:i]
		if j := bytes.IndexByte(blk, '\n'); j >= 0 {
			for {
				k := bytes.IndexByte(blk[j+1:], '\n')
				if k < 0 {
					return s + j
				}
				j += k + 1
			}
		}
		i = s
	}
	return -1
}

// tailWindows recycles the TailBytes windows of readTailBackward.
var tailWindows = sync.Pool{New: func() any { b := make([]byte, TailBytes); return &b }}
