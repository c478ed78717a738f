package board

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// pausingSource is a fakeSource that can pause: it moves its card and
// records the calls.
type pausingSource struct {
	*fakeSource
	calls []string
	err   error
}

func (p *pausingSource) set(id, state string) error {
	p.calls = append(p.calls, state+" "+id)
	if p.err != nil {
		return p.err
	}
	p.mu.Lock()
	p.cards[0].State = state
	p.mu.Unlock()
	return nil
}

func (p *pausingSource) Pause(id string) error  { return p.set(id, Paused) }
func (p *pausingSource) Resume(id string) error { return p.set(id, Running) }

func TestPauseNeedsAPauser(t *testing.T) {
	tests := []struct {
		name  string
		state string
		pause bool
		want  error
	}{
		{"running", Running, true, ErrNoPause},
		{"needs you", NeedsYou, true, ErrNoPause},
		{"paused, resume", Paused, false, ErrNoPause},
		{"done", Done, true, ErrEnded},
		{"failed, resume", Failed, false, ErrEnded},
		{"running, resume: nothing to do", Running, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := New(t.TempDir(), nil)
			b.Add("pipeline", newFake(tt.state))
			f := b.Pause
			if !tt.pause {
				f = b.Resume
			}
			if err := f("pipeline/p-1"); !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
		})
	}
	if ErrNoPause.Error() != "Pausing is not available for this session." {
		t.Errorf("wording changed: %q", ErrNoPause)
	}
	b := New(t.TempDir(), nil)
	if err := b.Pause("pipeline/nope"); !errors.Is(err, ErrNoCard) {
		t.Errorf("unknown card: %v", err)
	}
}

func TestPauseThroughAPauser(t *testing.T) {
	em := &cardsEmitter{}
	b := New(t.TempDir(), em)
	src := &pausingSource{fakeSource: newFake(Running)}
	src.cards[0].CanPause = true
	b.Add("terminal", src)
	t0 := time.Now()
	if err := b.Pause("terminal/p-1"); err != nil {
		t.Fatal(err)
	}
	em.waitColumn(t, "terminal/p-1", Paused, t0)
	if err := b.Pause("terminal/p-1"); err != nil {
		t.Fatalf("pausing a paused card: %v", err)
	}
	if err := b.Drop("terminal/p-1", Done); err != nil {
		t.Fatalf("a paused card may be dropped on Done: %v", err)
	}
	if err := b.Resume("terminal/p-1"); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(src.calls, ","); got != "paused p-1,running p-1" {
		t.Fatalf("source calls = %s, want one pause and one resume", got)
	}
	src.err = ErrEnded
	if err := b.Pause("terminal/p-1"); !errors.Is(err, ErrEnded) {
		t.Fatalf("the source's ErrEnded should reach the user as is, got %v", err)
	}
	src.err = errors.New("permission denied")
	if err := b.Pause("terminal/p-1"); err == nil || err.Error() != "pausing the session: permission denied" {
		t.Fatalf("source failure: %v", err)
	}
	src.cards[0].CanPause = false
	if err := b.Pause("terminal/p-1"); !errors.Is(err, ErrNoPause) {
		t.Fatalf("a card without canPause: %v", err)
	}
}
