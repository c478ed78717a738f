//go:build !windows

package terminal

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// memScrollback keeps panes and their saved output in memory, counting the
// writes.
type memScrollback struct {
	mu     sync.Mutex
	data   map[string][]byte
	writes int
}

func (s *memScrollback) SavePane(Spec) error           { return nil }
func (s *memScrollback) DeletePane(string) error       { return nil }
func (s *memScrollback) LoadPanes() ([]Spec, error)    { return nil, nil }
func (s *memScrollback) DeleteScrollback(string) error { return nil }

func (s *memScrollback) SaveScrollback(id string, b []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.data[id] = b
	s.writes++
	return nil
}

func (s *memScrollback) LoadScrollback(id string) ([]byte, time.Time, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.data[id], time.Time{}, nil
}

func (s *memScrollback) state() (int, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var all []string
	for _, b := range s.data {
		all = append(all, string(b))
	}
	return s.writes, strings.Join(all, "")
}

// The timer writes a pane's output once it has been still for a tick, and
// output that keeps coming every saveEvery; unchanged output never.
func TestTimerWritesSettledOutputAndBoundsBusyOutput(t *testing.T) {
	st := &memScrollback{data: map[string][]byte{}}
	m := NewManager(nil)
	defer m.CloseAll()
	m.SetStore(st)
	m.SetScrollback(ScrollbackPolicy{Keep: true, Lines: 100})
	m.stopSaving() // this test is the clock
	info, err := m.Create(Options{Dir: t.TempDir(), Argv: []string{"/bin/sh", "-c", "while read l; do echo \"out-$l\"; done"}, Env: shellEnv(), Cols: 80, Rows: 24})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := m.Get(info.ID)
	say := func(line string) {
		t.Helper()
		p.Write([]byte(line + "\n"))
		waitFor(t, "out-"+line, func() bool { _, data := p.scrollback(100); return strings.Contains(string(data), "out-"+line) })
	}
	c := saveClock{seen: map[string]uint64{}, wroteAt: map[string]time.Time{}}
	t0 := time.Now()
	tick := func(s int, wantWrites int, what string) {
		t.Helper()
		if err := m.saveDue(&c, t0.Add(time.Duration(s)*time.Second)); err != nil {
			t.Fatal(err)
		}
		if n, _ := st.state(); n != wantWrites {
			t.Fatalf("at %d s (%s): %d writes, want %d", s, what, n, wantWrites)
		}
	}

	say("first")
	tick(0, 1, "first output, never written")
	tick(1, 1, "unchanged")
	say("second")
	tick(2, 1, "changed since the last tick: may still be coming")
	tick(3, 2, "still for a tick")
	if _, data := st.state(); !strings.Contains(data, "out-second") {
		t.Fatalf("saved %q, want the settled output", data)
	}
	for s := 4; s < 13; s++ {
		say(fmt.Sprint("busy", s))
		tick(s, 2, "busy, under saveEvery since the last write")
	}
	say("busy13")
	tick(13, 3, "busy for saveEvery")
	if _, data := st.state(); !strings.Contains(data, "out-busy13") {
		t.Fatalf("saved %q, want the output up to now", data)
	}
	tick(14, 3, "unchanged since written")
}
