//go:build !windows

package terminal

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// waiters is how many chunks of stream wait for their turn (tests).
func (o *inputOrder) waiters(stream string) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	if s := o.streams[stream]; s != nil {
		return len(s.waiting)
	}
	return 0
}

// write runs chunk seq of stream through o and records it.
func orderedWrite(o *inputOrder, mu *sync.Mutex, got *[]string, stream string, seq uint64) {
	done := o.turn(stream, seq)
	mu.Lock()
	*got = append(*got, fmt.Sprintf("%s%d", stream, seq))
	mu.Unlock()
	done()
}

func TestInputOrder(t *testing.T) {
	cases := []struct {
		name string
		run  func(t *testing.T, o *inputOrder, write func(stream string, seq uint64))
		want []string
	}{
		{
			// The calls arrive last first: each waits until the one before
			// it was written.
			name: "calls arriving in reverse are written in order",
			run: func(t *testing.T, o *inputOrder, write func(string, uint64)) {
				var wg sync.WaitGroup
				for seq := uint64(5); seq >= 2; seq-- {
					wg.Add(1)
					go func() { defer wg.Done(); write("a", seq) }()
					waitFor(t, fmt.Sprintf("chunk %d waiting", seq), func() bool { return o.waiters("a") == int(6-seq) })
				}
				write("a", 1)
				wg.Wait()
			},
			want: []string{"a1", "a2", "a3", "a4", "a5"},
		},
		{
			// A reloaded view numbers from 1 again under a new name: it
			// must not wait for the old view's missing number.
			name: "a new view's stream does not wait for an old one",
			run: func(t *testing.T, o *inputOrder, write func(string, uint64)) {
				o.gap = time.Hour
				write("old", 1)
				late := make(chan struct{})
				go func() { write("old", 3); close(late) }() // 2 is not sent yet
				waitFor(t, "old chunk 3 waiting", func() bool { return o.waiters("old") == 1 })
				write("new", 1)
				write("new", 2)
				write("old", 2) // lets chunk 3 end its wait
				<-late
			},
			want: []string{"old1", "new1", "new2", "old2", "old3"},
		},
		{
			// A number that never comes delays the stream once; when it
			// does come after all, it is written rather than lost.
			name: "a gap is skipped after a while and the late chunk still written",
			run: func(t *testing.T, o *inputOrder, write func(string, uint64)) {
				o.gap = 10 * time.Millisecond
				write("a", 1)
				write("a", 3)
				write("a", 4)
				write("a", 2)
			},
			want: []string{"a1", "a3", "a4", "a2"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := &inputOrder{}
			var mu sync.Mutex
			var got []string
			c.run(t, o, func(stream string, seq uint64) { orderedWrite(o, &mu, &got, stream, seq) })
			mu.Lock()
			defer mu.Unlock()
			if strings.Join(got, " ") != strings.Join(c.want, " ") {
				t.Fatalf("written %v, want %v", got, c.want)
			}
		})
	}
}

// TestPaneInputKeepsTypingOrder types 200 numbered chunks into a real PTY
// running cat, all calls racing as Wails serves them (one goroutine each,
// released together in random order), while an agent's runtime_send
// writes "text + Enter" ten times: the program must read the chunks in the
// order typed, and each send whole.
func TestPaneInputKeepsTypingOrder(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "typed.txt")
	p, err := Start(Options{Dir: dir, Argv: []string{"/bin/sh", "-c", "stty -echo; exec cat > " + out}, Env: shellEnv(), Cols: 80, Rows: 24})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	waitFor(t, "cat started", func() bool { _, err := os.Stat(out); return err == nil })

	const chunks, sends = 200, 10
	var want strings.Builder
	start := make(chan struct{})
	var wg sync.WaitGroup
	for _, i := range rand.Perm(chunks) {
		seq := uint64(i + 1)
		chunk := fmt.Sprintf("c%03d ", seq)
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			if err := p.Input("view:a", seq, []byte(chunk)); err != nil {
				t.Error(err)
			}
		}()
	}
	for i := 1; i <= chunks; i++ {
		fmt.Fprintf(&want, "c%03d ", i)
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		<-start
		for i := 0; i < sends; i++ {
			if _, err := p.Write([]byte("[runtime_send]\r")); err != nil {
				t.Error(err)
			}
		}
	}()
	close(start)
	wg.Wait()
	if err := p.Input("view:a", chunks+1, []byte("\r")); err != nil {
		t.Fatal(err)
	}
	var got string
	waitFor(t, "every line written by cat", func() bool {
		b, _ := os.ReadFile(out)
		got = string(b)
		return strings.Count(got, "\n") == sends+1
	})
	if n := strings.Count(got, "[runtime_send]\n"); n != sends {
		t.Fatalf("%d of %d sends arrived whole (text then Enter):\n%s", n, sends, got)
	}
	typed := strings.ReplaceAll(got, "[runtime_send]\n", "")
	if typed != want.String()+"\n" {
		t.Fatalf("typing arrived out of order:\n got %q\nwant %q", typed, want.String()+"\n")
	}
}
