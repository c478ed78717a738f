package board

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/store"
)

// A session the user ended stays in Done with its summary until cleared,
// whatever its source does once it has ended (a pane closes and is gone, a
// cancelled run reads failed), and after the app restarts.
func TestEndedSessionStaysInDoneUntilCleared(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(filepath.Join(t.TempDir(), "app.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	kn := t.TempDir()
	b := New(kn, nil)
	if err := b.Keep(ctx, db); err != nil {
		t.Fatal(err)
	}
	src := newFake(Idle) // End removes its card, as closing a pane does
	b.Add("terminal", src)
	path, err := b.End("terminal/p-1")
	if err != nil {
		t.Fatal(err)
	}
	done := func(b *Board) Card {
		t.Helper()
		cards := b.Cards()
		if len(cards) != 1 || cards[0].Key != "terminal/p-1" || cards[0].State != Done || cards[0].Summary != path ||
			cards[0].Title != "fix the login bug" || cards[0].Kind != KindTerminal {
			t.Fatalf("cards after ending = %+v, want the session in Done with its summary %s", cards, path)
		}
		return cards[0]
	}
	c := done(b)
	if c.Why == "" {
		t.Error("an ended card says nothing")
	}
	if err := b.Drop("terminal/p-1", Done); !errors.Is(err, ErrSameColumn) {
		t.Errorf("dropping the ended card on Done again = %v", err)
	}

	// The app restarts: the card is still there.
	b2 := New(kn, nil)
	if err := b2.Keep(ctx, db); err != nil {
		t.Fatal(err)
	}
	b2.Add("terminal", &fakeSource{})
	done(b2)

	if err := b2.Clear("terminal/p-1"); err != nil {
		t.Fatal(err)
	}
	if cards := b2.Cards(); len(cards) != 0 {
		t.Fatalf("cards after Clear = %+v", cards)
	}
	b3 := New(kn, nil)
	if err := b3.Keep(ctx, db); err != nil {
		t.Fatal(err)
	}
	b3.Add("terminal", &fakeSource{})
	if cards := b3.Cards(); len(cards) != 0 {
		t.Fatalf("a cleared card came back after a restart: %+v", cards)
	}
}

// Clear takes a finished card off the board (a chat ended from its screen,
// a run that finished or failed), and only a finished one.
func TestClearOnlyFinishedCards(t *testing.T) {
	b := New(t.TempDir(), nil)
	src := &fakeSource{cards: []Card{
		{ID: "c-1", Kind: KindChat, Title: "ended chat", State: Done},
		{ID: "r-1", Kind: KindAgent, Title: "failed run", State: Failed},
		{ID: "c-2", Kind: KindChat, Title: "idle chat", State: Idle},
		{ID: "r-2", Kind: KindAgent, Title: "running", State: Running},
	}}
	b.Add("pipeline", src)
	for _, key := range []string{"pipeline/c-2", "pipeline/r-2"} {
		if err := b.Clear(key); !errors.Is(err, ErrNotFinished) {
			t.Errorf("Clear(%s) = %v, want ErrNotFinished", key, err)
		}
	}
	if err := b.Clear("pipeline/nope"); !errors.Is(err, ErrNoCard) {
		t.Errorf("Clear of an unknown card = %v", err)
	}
	if err := b.Clear("pipeline/c-1"); err != nil {
		t.Fatal(err)
	}
	if err := b.Clear("pipeline/r-1"); err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, c := range b.Cards() {
		left = append(left, c.ID)
	}
	if len(left) != 2 || left[0] != "c-2" || left[1] != "r-2" {
		t.Fatalf("cards after clearing = %v, want the two unfinished ones", left)
	}
}

func TestColumnRefusalAgreesWithTheBoard(t *testing.T) {
	// The Sessions subtitle says "Drag an idle or paused session to Done".
	want := "A session's column follows what it is doing. Only an idle or paused session can be moved, and only to Done."
	if ErrColumn.Error() != want {
		t.Errorf("ErrColumn = %q, want %q", ErrColumn, want)
	}
}

// When the database cannot take the record, the session has still ended and
// its card still shows in Done; the error says only the restart is at risk.
func TestEndedCardShownWhenTheDatabaseFails(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "app.db"))
	if err != nil {
		t.Fatal(err)
	}
	b := New(t.TempDir(), nil)
	if err := b.Keep(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	db.Close()
	src := newFake(Idle)
	b.Add("terminal", src)
	path, err := b.End("terminal/p-1")
	if err == nil || path == "" || !strings.Contains(err.Error(), "summary is saved to "+path) {
		t.Fatalf("End = %q, %v", path, err)
	}
	if len(src.ended) != 1 {
		t.Error("the session was not ended")
	}
	if cards := b.Cards(); len(cards) != 1 || cards[0].State != Done {
		t.Errorf("cards = %+v, want the ended card in Done", cards)
	}
}
