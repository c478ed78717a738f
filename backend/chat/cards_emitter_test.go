package chat_test

import (
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/board"
)

// cardsEmitter keeps every board:changed payload with its arrival time.
type cardsEmitter struct {
	mu   sync.Mutex
	sent []sentCards
}

type sentCards struct {
	at    time.Time
	cards []board.Card
}

func (e *cardsEmitter) Emit(name string, payload any) {
	if name != board.EventChanged {
		return
	}
	e.mu.Lock()
	e.sent = append(e.sent, sentCards{time.Now(), payload.([]board.Card)})
	e.mu.Unlock()
}

// waitColumn waits for a board:changed event showing key in column, sent
// after since.
func (e *cardsEmitter) waitColumn(t *testing.T, key, column string, since time.Time) {
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
					return
				}
			}
		}
		e.mu.Unlock()
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no board:changed with %s in %s", key, column)
}
