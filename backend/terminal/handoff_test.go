package terminal

import (
	"fmt"
	"math/rand"
	"strings"
	"sync"
	"testing"

	"github.com/hinshun/vt10x"
)

// A full queue is emulated on a goroutine of its own (handOff). Whatever
// reads the screen after a write — Lines, a cursor query later in the
// stream, a resize — must still see every byte written before, in order,
// while other goroutines read the screen at the same time.
func TestEmulatorHandOffKeepsOrder(t *testing.T) {
	const cols, rows = 60, 8
	e := NewEmulator(cols, rows)
	var replies []string
	e.OnReply(func(b []byte) { replies = append(replies, string(b)) }) // runs on the writer
	ref := vt10x.New(vt10x.WithSize(cols, rows))

	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // readers beside the writer
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			e.Lines()
			e.AltScreen()
			e.Repaint()
		}
	}()
	defer func() { close(stop); wg.Wait() }()

	r := rand.New(rand.NewSource(1))
	write := func(s string) {
		b := []byte(s)
		for off := 0; off < len(b); {
			n := min(len(b)-off, 1+r.Intn(8<<10))
			e.Write(b[off : off+n])
			off += n
		}
		ref.Write(cellText(b, nil))
	}
	screen := func() []string {
		w, h := ref.Size()
		out := make([]string, h)
		for y := range out {
			var sb strings.Builder
			for x := 0; x < w; x++ {
				c := ref.Cell(x, y).Char
				switch c {
				case widePad:
					continue
				case 0:
					c = ' '
				}
				sb.WriteRune(c)
			}
			out[y] = strings.TrimRight(sb.String(), " ")
		}
		return out
	}
	check := func(what string) {
		t.Helper()
		got, want := e.Lines(), screen()
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("%s: screen\n%s\nwant\n%s", what, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}

	for burst := 0; burst < 4; burst++ {
		var sb strings.Builder
		for i := 0; sb.Len() < lazyMax+r.Intn(64<<10); i++ {
			fmt.Fprintf(&sb, "\x1b[3%dmburst %d\x1b[0m line %d é日\r\n", i%8, burst, i)
			if burst%2 == 1 && i%500 == 0 {
				sb.WriteString("\x1b[2;5Hmoved\x1b[8;1H") // not skippable: emulated whole
			}
		}
		write(sb.String())
		check(fmt.Sprintf("burst %d", burst))

		// A cursor query right behind a handed-off queue is answered from
		// the screen with every earlier byte on it.
		sb.Reset()
		for i := 0; sb.Len() < lazyMax+r.Intn(64<<10); i++ {
			fmt.Fprintf(&sb, "query burst %d line %d\r\n", burst, i)
		}
		write(sb.String() + fmt.Sprintf("end %d", burst))
		n := len(replies)
		e.Write([]byte("\x1b[6n"))
		c := ref.Cursor()
		if want := fmt.Sprintf("\x1b[%d;%dR", c.Y+1, c.X+1); len(replies) != n+1 || replies[n] != want {
			t.Fatalf("burst %d: cursor replies %q, want %q", burst, replies[n:], want)
		}
		check(fmt.Sprintf("burst %d after the query", burst))
	}

	// A resize right behind a handed-off queue applies after it.
	var sb strings.Builder
	for i := 0; sb.Len() < lazyMax+1; i++ {
		fmt.Fprintf(&sb, "before resize %d\r\n", i)
	}
	write(sb.String())
	e.Resize(cols/2, rows)
	ref.Resize(cols/2, rows)
	check("after a resize")
}
