//go:build !windows

package terminal

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// batchSeq is the number of the pane's last delivered batch, read without
// disturbing it (Snapshot would drop the pending bytes).
func batchSeq(p *Pane) uint64 {
	p.batch.mu.Lock()
	defer p.batch.mu.Unlock()
	return p.batch.seq
}

// typeAndWait types line into the pane (cat echoes it twice: the terminal's
// echo and cat's own copy) and waits until the batch holding it was delivered.
func typeAndWait(t *testing.T, p *Pane, line string) {
	t.Helper()
	before := batchSeq(p)
	if _, err := p.Write([]byte(line + "\n")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the pane to print "+line, func() bool {
		return strings.Contains(strings.Join(p.Screen().Lines, "\n"), line)
	})
	waitFor(t, "the batch holding "+line, func() bool {
		p.batch.mu.Lock()
		defer p.batch.mu.Unlock()
		return p.batch.seq > before && !p.batch.armed
	})
	// The delivery itself runs just after the batch is closed.
	time.Sleep(5 * frameInterval)
}

// Output events cost the web view a JavaScript call each, even for panes no
// view shows (the Terminal screen shows one pane; the rest run behind it).
// A pane's output is sent only while a view is attached; a view that
// attaches draws the pane's buffer, so nothing is lost.
func TestPaneOutputReachesOnlyAttachedViews(t *testing.T) {
	rec := &recEmitter{}
	m := NewManager(rec)
	t.Cleanup(m.CloseAll)
	s := NewService(m, shellEnv)
	info, err := m.Create(Options{Dir: t.TempDir(), Argv: []string{"/bin/cat"}, Env: shellEnv(), Cols: 80, Rows: 24})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := m.Get(info.ID)

	typeAndWait(t, p, "unseen-one")
	if n := rec.count(EventOutput); n != 0 {
		t.Fatalf("a pane without a view sent %d output events", n)
	}
	a, err := s.Attach(info.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(a.Data, []byte("unseen-one")) {
		t.Fatalf("the attach snapshot lacks the output printed while no view was attached: %q", a.Data)
	}
	typeAndWait(t, p, "seen-two")
	waitFor(t, "the attached view's output event", func() bool { return bytes.Contains(rec.data(), []byte("seen-two")) })
}

func TestDetachedPaneStopsSending(t *testing.T) {
	rec := &recEmitter{}
	m := NewManager(rec)
	t.Cleanup(m.CloseAll)
	s := NewService(m, shellEnv)
	info, err := m.Create(Options{Dir: t.TempDir(), Argv: []string{"/bin/cat"}, Env: shellEnv(), Cols: 80, Rows: 24})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := m.Get(info.ID)
	// Two views (the window and a second window), then both leave.
	for range 2 {
		if _, err := s.Attach(info.ID); err != nil {
			t.Fatal(err)
		}
	}
	s.Detach(info.ID)
	typeAndWait(t, p, "one-view-left")
	waitFor(t, "output while one view is attached", func() bool { return bytes.Contains(rec.data(), []byte("one-view-left")) })
	s.Detach(info.ID)
	s.Detach(info.ID) // one too many: the count stays at zero, not below
	typeAndWait(t, p, "nobody-looks")
	if bytes.Contains(rec.data(), []byte("nobody-looks")) {
		t.Fatal("output was sent after every view detached")
	}
	a, err := s.Attach(info.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(a.Data, []byte("nobody-looks")) {
		t.Fatal("a view attaching later does not get the output no view saw")
	}
	typeAndWait(t, p, "back-again")
	waitFor(t, "output after a new attach", func() bool { return bytes.Contains(rec.data(), []byte("back-again")) })
	if _, err := s.Attach("no-such-pane"); err == nil {
		t.Fatal("attaching to a pane that does not exist should fail")
	}
}
