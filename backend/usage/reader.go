package usage

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// maxLine is the longest line parsed. Longer lines (a pasted image, a
// whole file in a tool result) are skipped without being kept in memory:
// an assistant record with usage is a few KiB.
const maxLine = 4 << 20

// readers are reused: a first open reads a thousand files, and a fresh
// buffer each was most of its allocations (and their clearing).
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 64<<10) }}

// tail remembers how far a file was read, so a refresh reads only the
// bytes appended since. off is always at the start of a line: a last line
// still being written (no newline yet) is read again next time.
type tail struct {
	size    int64
	off     int64
	skipped int   // corrupt or over-long lines so far
	err     error // the last read's, e.g. a file that can no longer be opened
}

// readNew calls line for every complete line appended since the last
// call and reports whether the file was read from the start (it shrank or
// was replaced, so what was kept of it must be dropped first: reset is
// called before the first line then).
func (t *tail) readNew(path string, size int64, reset func(), line func([]byte)) (skipped int, err error) {
	if size == t.size && t.off == size {
		return 0, nil
	}
	if size < t.off {
		t.off = 0
		reset()
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("opening %s: %w", path, err)
	}
	defer f.Close()
	if _, err := f.Seek(t.off, io.SeekStart); err != nil {
		return 0, fmt.Errorf("seeking %s: %w", path, err)
	}
	r := readers.Get().(*bufio.Reader)
	defer readers.Put(r)
	r.Reset(io.LimitReader(f, size-t.off))
	var long []byte // a line longer than the buffer, assembled
	var n int64     // bytes of the current line read so far
	tooLong := false
	for {
		chunk, err := r.ReadSlice('\n')
		n += int64(len(chunk))
		if errors.Is(err, bufio.ErrBufferFull) {
			if !tooLong && len(long)+len(chunk) <= maxLine {
				long = append(long, chunk...)
			} else {
				tooLong, long = true, long[:0]
			}
			continue
		}
		if errors.Is(err, io.EOF) { // chunk is a line still being written
			t.size = size
			return skipped, nil
		}
		if err != nil {
			return skipped, fmt.Errorf("reading %s: %w", path, err)
		}
		t.off += n
		n = 0
		if tooLong || len(long)+len(chunk) > maxLine {
			skipped++
		} else if len(long) > 0 {
			long = append(long, chunk...)
			line(bytes.TrimRight(long, "\r\n"))
		} else {
			line(bytes.TrimRight(chunk, "\r\n"))
		}
		tooLong, long = false, long[:0]
	}
}
