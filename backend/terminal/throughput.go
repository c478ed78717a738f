package terminal

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/creack/pty"
)

// ThroughputResult is one side of the pane throughput benchmark.
type ThroughputResult struct {
	Bytes    int64
	Elapsed  time.Duration
	UIEvents int64
}

// MBps is the throughput in MB/s (10^6 bytes).
func (r ThroughputResult) MBps() float64 {
	return float64(r.Bytes) / 1e6 / r.Elapsed.Seconds()
}

// EventsPerSecond is the UI event rate.
func (r ThroughputResult) EventsPerSecond() float64 {
	return float64(r.UIEvents) / r.Elapsed.Seconds()
}

// WriteSampleOutput writes size bytes shaped like busy agent/build output
// (coloured log lines, progress redraws with \r, a few wide characters).
func WriteSampleOutput(path string, size int64) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("creating sample output: %w", err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var n int64
	for i := 0; n < size; i++ {
		var line string
		switch i % 4 {
		case 0:
			line = fmt.Sprintf("\x1b[32m✓\x1b[0m test %06d passed in %d ms — package ./backend/area%02d\r\n", i, i%997, i%50)
		case 1:
			line = fmt.Sprintf("\x1b[1;34mINFO\x1b[0m  compiling module %d of 9999: 日本語 résumé naïve\r\n", i)
		case 2:
			line = fmt.Sprintf("\r\x1b[2K[%-40s] %3d%%", "########################################"[:i%40], i%100)
		default:
			line = fmt.Sprintf("\x1b[33mwarn\x1b[0m: line %d has a long tail %s\r\n", i, "lorem ipsum dolor sit amet consectetur adipiscing elit ")
		}
		k, _ := w.WriteString(line)
		n += int64(k)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("writing sample output: %w", err)
	}
	return f.Close()
}

// RawDrain runs `cat file` on a bare PTY and reads everything: the upper
// bound for any pane.
func RawDrain(file string) (ThroughputResult, error) {
	cmd := exec.Command("cat", file)
	start := time.Now()
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 120, Rows: 32})
	if err != nil {
		return ThroughputResult{}, fmt.Errorf("starting raw pty: %w", err)
	}
	n, _ := io.Copy(io.Discard, f) // ends with EIO when cat exits
	cmd.Wait()
	f.Close()
	return ThroughputResult{Bytes: n, Elapsed: time.Since(start)}, nil
}

// PaneDrain runs `cat file` in a real pane: PTY → filter → emulator →
// frame batcher, counting the UI events it would send.
func PaneDrain(file string) (ThroughputResult, error) {
	var events, bytes atomic.Int64
	start := time.Now()
	p, err := Start(Options{
		Dir: filepath.Dir(file), Argv: []string{"cat", file}, Env: os.Environ(), Cols: 120, Rows: 32,
		OnOutput: func(_ uint64, b []byte) { events.Add(1) },
		Tap:      countWriter{&bytes},
	})
	if err != nil {
		return ThroughputResult{}, err
	}
	<-p.Done()
	el := time.Since(start)
	p.Close()
	return ThroughputResult{Bytes: bytes.Load(), Elapsed: el, UIEvents: events.Load()}, nil
}

type countWriter struct{ n *atomic.Int64 }

func (c countWriter) Write(b []byte) (int, error) { c.n.Add(int64(len(b))); return len(b), nil }
