package board

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/backend/panestate"
	"github.com/osfoundry/desktop/backend/terminal"
	"github.com/osfoundry/desktop/backend/testkit/fakeprompt"
	"github.com/osfoundry/desktop/rules"
)

// cardsEmitter keeps every board:changed payload with its arrival time.
type cardsEmitter struct {
	mu   sync.Mutex
	sent []sentCards
}

type sentCards struct {
	at    time.Time
	cards []Card
}

func (e *cardsEmitter) Emit(name string, payload any) {
	if name != EventChanged {
		return
	}
	e.mu.Lock()
	e.sent = append(e.sent, sentCards{time.Now(), payload.([]Card)})
	e.mu.Unlock()
}

// waitColumn waits for a board:changed event showing key in column, sent
// after since; it returns when it was sent.
func (e *cardsEmitter) waitColumn(t *testing.T, key, column string, since time.Time) time.Time {
	t.Helper()
	end := time.Now().Add(10 * time.Second)
	for time.Now().Before(end) {
		e.mu.Lock()
		for _, s := range e.sent {
			if s.at.Before(since) {
				continue
			}
			for _, c := range s.cards {
				if c.Key == key && c.State == column {
					e.mu.Unlock()
					return s.at
				}
			}
		}
		e.mu.Unlock()
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no board:changed with %s in %s", key, column)
	return time.Time{}
}

// terminalRig is a board over real panes, detection wired as in the app.
type terminalRig struct {
	mgr *terminal.Manager
	w   *panestate.Watcher
	em  *cardsEmitter
	b   *Board
}

func newTerminalRig(t *testing.T) *terminalRig {
	t.Helper()
	reg, _, err := detect.Load(rules.Files, "")
	if err != nil {
		t.Fatal(err)
	}
	r := &terminalRig{mgr: terminal.NewManager(nil), em: &cardsEmitter{}}
	if r.w, err = panestate.New(r.mgr, panestate.Config{Registry: reg}); err != nil {
		t.Fatal(err)
	}
	r.w.Start()
	t.Cleanup(func() { r.mgr.CloseAll(); r.w.Close() })
	r.b = New(t.TempDir(), r.em)
	r.b.Add("terminal", NewTerminal(r.mgr, r.w, r.b.Changed))
	return r
}

// promptPane starts prompt.sh (the Claude Code stand-in) in a folder named
// folder; a task works for work seconds before it asks.
func (r *terminalRig) promptPane(t *testing.T, folder, work string) (terminal.Info, *terminal.Pane, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), folder)
	os.Mkdir(dir, 0o700)
	info, err := r.mgr.Create(terminal.Options{Dir: dir, Argv: []string{"bash", fakeprompt.Script()}, Env: append(os.Environ(), "OSF_WORK="+work), Cols: 100, Rows: 30})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := r.mgr.Get(info.ID)
	return info, p, "terminal/" + info.ID
}

// The real thing: a pane running prompt.sh, detection wired as in the app,
// the board over it. The prompt moves the card to Needs you (timed from the
// prompt on the pane's screen to the event carrying the card), the answer
// moves it back, a running card cannot be ended, an idle one is summarised
// and its pane closed.
func TestTerminalCardsFollowThePane(t *testing.T) {
	r := newTerminalRig(t)
	b, em := r.b, r.em
	info, p, key := r.promptPane(t, "shop-api", "0.2")
	em.waitColumn(t, key, Idle, time.Time{})

	var worst time.Duration
	for round := 0; round < 5; round++ {
		t0 := time.Now()
		p.Write([]byte("t"))
		em.waitColumn(t, key, Running, t0)
		if err := b.Drop(key, Done); !errors.Is(err, ErrStillRunning) {
			t.Fatalf("running card on Done: %v", err)
		}
		drawn := waitScreenText(t, p, "Do you want to proceed?")
		at := em.waitColumn(t, key, NeedsYou, t0)
		if d := at.Sub(drawn); d > worst {
			worst = d
		}
		if _, err := b.End(key); !errors.Is(err, ErrStillRunning) {
			t.Fatalf("ending a session that needs you: %v", err)
		}
		t1 := time.Now()
		p.Write([]byte("1"))
		em.waitColumn(t, key, Idle, t1)
	}
	t.Logf("prompt on screen → board:changed with the card in Needs you: worst %v over 5 prompts", worst)

	c := b.Cards()[0]
	if c.Title != "Claude Code in shop-api" || c.Folder != "shop-api" || c.Kind != KindTerminal || c.Link != "/terminal?pane="+info.ID {
		t.Errorf("card = %+v", c)
	}
	path, err := b.End(key)
	if err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(path)
	for _, want := range []string{"- Kind: Terminal", "- Agent: Claude Code", "- Where: " + info.Dir, "Claude Code asked for a decision", "Removed build/.", "? for shortcuts"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("summary lacks %q:\n%s", want, md)
		}
	}
	if _, err := r.mgr.Get(info.ID); err == nil {
		t.Error("the ended pane is still open")
	}
	// The pane is gone, its card stays in Done with the summary.
	if cards := b.Cards(); len(cards) != 1 || cards[0].Key != key || cards[0].State != Done || cards[0].Summary != path {
		t.Errorf("cards after ending = %+v", cards)
	}
}

func waitScreenText(t *testing.T, p *terminal.Pane, text string) time.Time {
	t.Helper()
	end := time.Now().Add(10 * time.Second)
	for time.Now().Before(end) {
		if strings.Contains(strings.Join(p.Emulator().Lines(), "\n"), text) {
			return time.Now()
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("the pane never showed %q", text)
	return time.Time{}
}
