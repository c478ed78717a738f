package board

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestDropRules(t *testing.T) {
	tests := []struct {
		state, column string
		want          error
	}{
		{Idle, Done, nil},
		{Paused, Done, nil},
		{Running, Done, ErrStillRunning},
		{NeedsYou, Done, ErrStillRunning},
		{Failed, Done, ErrEnded},
		{Done, Done, ErrSameColumn},
		{Idle, Idle, ErrSameColumn},
		{Idle, Running, ErrColumn},
		{Running, NeedsYou, ErrColumn},
		{NeedsYou, Running, ErrColumn},
		{Done, Idle, ErrColumn},
		{Idle, Failed, ErrColumn},
		{Running, Paused, ErrColumn},
	}
	for _, tt := range tests {
		if got := dropRule(tt.state, tt.column); !errors.Is(got, tt.want) {
			t.Errorf("%s → %s: %v, want %v", tt.state, tt.column, got, tt.want)
		}
	}
	if got := dropRule("sleeping", Done); got == nil || !strings.Contains(got.Error(), "sleeping") {
		t.Errorf("unknown state: %v", got)
	}
	if ErrStillRunning.Error() != "This session is still running. Pause it first, then end it." {
		t.Errorf("refusal wording changed: %q", ErrStillRunning)
	}
}

// fakeSource is a scripted source recording End calls.
type fakeSource struct {
	mu     sync.Mutex
	cards  []Card
	state  string // what Summary reads fresh
	ended  []string
	endErr error
	dir    string // what Summary says (default /src/shop-api)
	agent  string // the agent's CLI name in Summary ("" = unknown)
}

func (f *fakeSource) Cards() []Card {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Card(nil), f.cards...)
}

func (f *fakeSource) Summary(id string) (Summary, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	dir := f.dir
	if dir == "" {
		dir = "/src/shop-api"
	}
	return Summary{Title: "fix the login bug", State: f.state, Command: "claude --model opus", Dir: dir,
		Agent: "Claude Code", AgentCLI: f.agent, SearchStore: f.agent != "", Started: time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC),
		Events:     []Event{{At: time.Date(2026, 5, 1, 10, 1, 0, 0, time.UTC), Text: "Claude Code asked: Bash(rm -rf build)"}},
		LastScreen: []string{"✻ Done.", "", "> ", "? for shortcuts"}}, nil
}

func (f *fakeSource) End(id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.endErr != nil {
		return f.endErr
	}
	f.ended = append(f.ended, id)
	f.cards = nil
	return nil
}

func newFake(state string) *fakeSource {
	return &fakeSource{state: state, cards: []Card{{ID: "p-1", Kind: KindTerminal, Title: "fix the login bug", Folder: "shop-api", State: state}}}
}

func TestEndWritesSummaryThenEnds(t *testing.T) {
	kn := t.TempDir()
	b := New(kn, nil)
	b.now = func() time.Time { return time.Date(2026, 5, 1, 10, 42, 0, 0, time.UTC) }
	src := newFake(Idle)
	b.Add("terminal", src)
	if err := b.Drop("terminal/p-1", Done); err != nil {
		t.Fatalf("Drop idle on Done = %v, want nil (confirm)", err)
	}
	path, err := b.End("terminal/p-1")
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(path) != filepath.Join(kn, SummaryDir) || filepath.Base(path) != "2026-05-01-104200-shop-api-fix-the-login-bug.md" {
		t.Errorf("summary path = %s", path)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# fix the login bug", "- Kind: Terminal", "- Ran: `claude --model opus`", "- Where: /src/shop-api",
		"- Ran for: 42 min", "10:01:00 Claude Code asked: Bash(rm -rf build)", "## Last screen", "? for shortcuts"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	if len(src.ended) != 1 || src.ended[0] != "p-1" {
		t.Errorf("ended = %v", src.ended)
	}
	if entries, _ := os.ReadDir(filepath.Join(kn, SummaryDir)); len(entries) != 1 {
		t.Errorf("knowledge/sessions holds %d files, want 1 (no temp left)", len(entries))
	}
}

func TestEndRefusals(t *testing.T) {
	tests := []struct {
		name       string
		cardState  string
		freshState string
		want       error
	}{
		{"running card", Running, Running, ErrStillRunning},
		{"needs you card", NeedsYou, NeedsYou, ErrStillRunning},
		// The card said idle but the pane started working again before the
		// user confirmed: the fresh read wins.
		{"working again at confirm", Idle, Running, ErrStillRunning},
		{"failed", Failed, Failed, ErrEnded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kn := t.TempDir()
			b := New(kn, nil)
			src := newFake(tt.cardState)
			src.state = tt.freshState
			b.Add("terminal", src)
			if _, err := b.End("terminal/p-1"); !errors.Is(err, tt.want) {
				t.Fatalf("End = %v, want %v", err, tt.want)
			}
			if len(src.ended) != 0 {
				t.Error("a refused session was ended")
			}
			if _, err := os.Stat(filepath.Join(kn, SummaryDir)); err == nil {
				if e, _ := os.ReadDir(filepath.Join(kn, SummaryDir)); len(e) != 0 {
					t.Errorf("a refused session left a summary: %v", e)
				}
			}
		})
	}
}

func TestSummaryFailureKeepsSession(t *testing.T) {
	base := t.TempDir()
	kn := filepath.Join(base, "knowledge")
	// The knowledge folder's path is taken by a file: nothing can be written.
	if err := os.WriteFile(kn, []byte("not a folder"), 0o600); err != nil {
		t.Fatal(err)
	}
	b := New(kn, nil)
	src := newFake(Idle)
	b.Add("terminal", src)
	_, err := b.End("terminal/p-1")
	if err == nil || !strings.Contains(err.Error(), "writing the session summary") {
		t.Fatalf("End = %v, want a summary error", err)
	}
	if len(src.ended) != 0 {
		t.Fatal("the session was ended although its summary failed")
	}
	if cards := b.Cards(); len(cards) != 1 || cards[0].State != Idle {
		t.Fatalf("cards after failure = %+v, want the session still idle", cards)
	}
}

func TestEndFailureRemovesSummary(t *testing.T) {
	kn := t.TempDir()
	b := New(kn, nil)
	src := newFake(Idle)
	src.endErr = errors.New("pane is closed")
	b.Add("terminal", src)
	if _, err := b.End("terminal/p-1"); err == nil || !strings.Contains(err.Error(), "ending the session") {
		t.Fatalf("End = %v", err)
	}
	if e, _ := os.ReadDir(filepath.Join(kn, SummaryDir)); len(e) != 0 {
		t.Errorf("summary kept after the session could not be ended: %v", e)
	}
}

func TestSummaryNeverOverwrites(t *testing.T) {
	kn := t.TempDir()
	s := Summary{Title: "t", Dir: "/x/shop", Ended: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	p1, err := writeSummary(kn, s)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := writeSummary(kn, s)
	if err != nil {
		t.Fatal(err)
	}
	if p1 == p2 || !strings.HasSuffix(p2, "-2.md") {
		t.Fatalf("second summary %s overwrote or misnamed (first %s)", p2, p1)
	}
}

func TestUnknownCard(t *testing.T) {
	b := New(t.TempDir(), nil)
	b.Add("terminal", newFake(Idle))
	for _, key := range []string{"terminal/p-9", "nosuch/p-1", "garbage"} {
		if err := b.Drop(key, Done); !errors.Is(err, ErrNoCard) {
			t.Errorf("Drop(%q) = %v", key, err)
		}
		if _, err := b.End(key); !errors.Is(err, ErrNoCard) {
			t.Errorf("End(%q) = %v", key, err)
		}
	}
}

type recEmitter struct {
	mu   sync.Mutex
	got  [][]Card
	sent chan struct{}
}

func (r *recEmitter) Emit(name string, payload any) {
	if name != EventChanged {
		return
	}
	r.mu.Lock()
	r.got = append(r.got, payload.([]Card))
	r.mu.Unlock()
	r.sent <- struct{}{}
}

func TestChangedCoalescesIntoOneEvent(t *testing.T) {
	em := &recEmitter{sent: make(chan struct{}, 10)}
	b := New(t.TempDir(), em)
	b.Add("terminal", newFake(Running))
	for i := 0; i < 20; i++ {
		b.Changed()
	}
	select {
	case <-em.sent:
	case <-time.After(time.Second):
		t.Fatal("no board:changed within a second")
	}
	time.Sleep(3 * coalesce)
	em.mu.Lock()
	defer em.mu.Unlock()
	if len(em.got) != 1 {
		t.Fatalf("%d events for one burst, want 1", len(em.got))
	}
	if c := em.got[0]; len(c) != 1 || c[0].Key != "terminal/p-1" || c[0].Source != "terminal" {
		t.Fatalf("payload = %+v", c)
	}
}
