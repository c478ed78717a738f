package pgmessages_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/messages/pgmessages"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

// A replica listening hears every post committed on either replica, once,
// in seq order per channel, and never a post that rolled back; when its
// connection is cut it says so (a gap) and hears later posts again.
func TestListenHearsPostsOfEveryReplica(t *testing.T) {
	url := pgtest.Database(t)
	poolA, a := open(t, url)
	_, b := open(t, url)
	sa, sb := messages.New(a, messages.Options{}), messages.New(b, messages.Options{})
	c1, err := sa.CreateChannel(bg, messages.NewChannel{Workspace: "ws-1", Name: "one"})
	if err != nil {
		t.Fatal(err)
	}
	c2, err := sa.CreateChannel(bg, messages.NewChannel{Workspace: "ws-1", Name: "two"})
	if err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	heard := map[string][]int64{}
	gaps := 0
	changed := make(chan struct{}, 1000)
	ctx, cancel := context.WithCancel(bg)
	done := make(chan error, 1)
	go func() {
		done <- b.Listen(ctx, func(p pgmessages.Posted) {
			mu.Lock()
			heard[p.Channel] = append(heard[p.Channel], p.Seq)
			mu.Unlock()
			changed <- struct{}{}
		}, func() {
			mu.Lock()
			gaps++
			mu.Unlock()
			changed <- struct{}{}
		})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != context.Canceled {
			t.Errorf("Listen ended with %v, want context.Canceled", err)
		}
	})
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.After(30 * time.Second)
		for {
			mu.Lock()
			met := ok()
			mu.Unlock()
			if met {
				return
			}
			select {
			case <-changed:
			case <-time.After(50 * time.Millisecond):
			case <-deadline:
				mu.Lock()
				defer mu.Unlock()
				t.Fatalf("waiting for %s: heard %v, %d gaps", what, heard, gaps)
			}
		}
	}
	listening := func() bool {
		var n int
		_ = poolA.QueryRow(bg, `SELECT COUNT(*) FROM pg_stat_activity WHERE query = 'LISTEN osf_messages'`).Scan(&n)
		return n == 1
	}
	waitFor("the listener", listening)

	var want = map[string][]int64{}
	post := func(s *messages.Store, ch string, i int) {
		m, _, err := s.PostMessage(bg, messages.Post{Channel: ch, AuthorKind: messages.AuthorPerson, Author: "p", Text: fmt.Sprint("post ", i)})
		if err != nil {
			t.Fatal(err)
		}
		want[ch] = append(want[ch], m.Seq)
	}
	for i := range 10 {
		post([]*messages.Store{sa, sb}[i%2], []string{c1.ID, c2.ID}[i%3%2], i)
	}
	// A post that rolls back is never announced.
	_ = a.Write(bg, func(tx messages.Tx) error {
		if _, err := tx.Posts().InsertMessage(bg, messages.Message{ID: "msg_lost", Channel: c1.ID, AuthorKind: "person",
			Author: "p", AuthorName: "p", Text: "lost", CreatedAt: "now"}); err != nil {
			return err
		}
		return fmt.Errorf("changed my mind")
	})
	post(sa, c1.ID, 10)
	same := func() bool { return fmt.Sprint(heard) == fmt.Sprint(want) }
	waitFor("every post once, in order", same)

	if _, err := poolA.Exec(bg, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN osf_messages'`); err != nil {
		t.Fatal(err)
	}
	waitFor("the gap", func() bool { return gaps == 1 })
	waitFor("listening again", listening)
	post(sb, c2.ID, 11)
	waitFor("a post after the gap", same)
}
