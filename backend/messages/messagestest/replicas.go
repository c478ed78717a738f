package messagestest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/messages"
)

// stores returns a Store on the backend and one on a replica of it.
func stores(t *testing.T, e Env) [2]*messages.Store {
	t.Helper()
	return [2]*messages.Store{messages.New(e.Backend, messages.Options{}), messages.New(e.Replica(t), messages.Options{})}
}

// retriedPosts: every post is retried by four callers at once, two on each
// replica, with the same idempotency key. Each key is stored once, with
// one post, and every caller gets that post back.
func retriedPosts(t *testing.T, e Env) {
	s := stores(t, e)
	c, err := s[0].CreateChannel(bg, messages.NewChannel{Workspace: "ws-1", Name: "general"})
	must(t, err)
	const keys, tries = 12, 4
	type result struct {
		id       string
		replayed bool
	}
	var mu sync.Mutex
	got := make([][]result, keys)
	var wg sync.WaitGroup
	for k := range keys {
		for i := range tries {
			wg.Add(1)
			go func() {
				defer wg.Done()
				m, replayed, err := s[i%2].PostMessage(bg, messages.Post{Channel: c.ID, AuthorKind: messages.AuthorAssistant,
					Author: "connect:c1", Text: fmt.Sprint("post ", k), Key: fmt.Sprint("key-", k)})
				if err != nil {
					t.Errorf("post %d, try %d: %v", k, i, err)
					return
				}
				mu.Lock()
				got[k] = append(got[k], result{m.ID, replayed})
				mu.Unlock()
			}()
		}
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	for k, rs := range got {
		first := 0
		for _, r := range rs {
			if r.id != rs[0].id {
				t.Errorf("key-%d: callers got posts %s and %s", k, rs[0].id, r.id)
			}
			if !r.replayed {
				first++
			}
		}
		if first != 1 {
			t.Errorf("key-%d: %d of %d callers wrote a post, want exactly 1 (the others replay it)", k, first, tries)
		}
	}
	ms, err := s[1].ListMessages(bg, c.ID, 0, messages.MaxListLimit)
	must(t, err)
	texts := map[string]int{}
	for _, m := range ms {
		texts[m.Text]++
	}
	if len(ms) != keys || len(texts) != keys {
		t.Errorf("%d posts stored (%d distinct), want %d: %v", len(ms), len(texts), keys, texts)
	}
	// The key is bound to its post on every replica.
	_, _, err = s[1].PostMessage(bg, messages.Post{Channel: c.ID, AuthorKind: messages.AuthorAssistant, Author: "connect:c1",
		Text: "something else", Key: "key-0"})
	if !errors.Is(err, messages.ErrKeyReused) {
		t.Errorf("a key reused for another post on the other replica: %v, want ErrKeyReused", err)
	}
}

// readerNeverSkips: while six writers on two replicas post to one
// channel, a reader pages with since = the last seq it saw. It must end
// with every post exactly once: a post that commits after a higher seq
// was read would be skipped for ever.
func readerNeverSkips(t *testing.T, e Env) {
	s := stores(t, e)
	c, err := s[0].CreateChannel(bg, messages.NewChannel{Workspace: "ws-1", Name: "busy"})
	must(t, err)
	const writers, each = 6, 15
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				if _, _, err := s[w%2].PostMessage(bg, messages.Post{Channel: c.ID, AuthorKind: messages.AuthorPerson,
					Author: fmt.Sprint("person-", w), Text: fmt.Sprintf("%d.%d", w, i)}); err != nil {
					t.Errorf("writer %d: %v", w, err)
					return
				}
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	seen := map[string]bool{}
	var since int64
	read := func() {
		ms, err := s[0].ListMessages(bg, c.ID, since, messages.MaxListLimit)
		must(t, err)
		for _, m := range ms {
			if seen[m.ID] {
				t.Errorf("post %s read twice", m.ID)
			}
			if m.Seq <= since {
				t.Errorf("seq %d after %d", m.Seq, since)
			}
			seen[m.ID] = true
			since = m.Seq
		}
	}
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		read()
	}
	read()
	if len(seen) != writers*each {
		t.Errorf("the reader saw %d posts, want %d: paging by seq skipped some", len(seen), writers*each)
	}
}

// postWindow: an author's posts are counted across replicas when the
// backend keeps the window (a backend that does not leaves it to each
// process, which one desktop process is).
func postWindow(t *testing.T, e Env) {
	l0, ok := e.Backend.(messages.PostLimiter)
	if !ok {
		t.Skip("this backend leaves the post window to the process")
	}
	l1 := e.Replica(t).(messages.PostLimiter)
	limiters := [2]messages.PostLimiter{l0, l1}
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	const limit, callers = 5, 16
	var wg sync.WaitGroup
	var mu sync.Mutex
	taken := 0
	for i := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, _, err := limiters[i%2].TakePost(bg, "connect:c1", t0, limit)
			if err != nil {
				t.Error(err)
				return
			}
			if ok {
				mu.Lock()
				taken++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if taken != limit {
		t.Fatalf("%d of %d concurrent posts were allowed, want %d", taken, callers, limit)
	}
	for _, c := range []struct {
		name   string
		l      messages.PostLimiter
		author string
		at     time.Time
		ok     bool
		wait   time.Duration
	}{
		{"another author", l1, "connect:c2", t0, true, 0},
		{"half a minute later", l0, "connect:c1", t0.Add(30 * time.Second), false, 30 * time.Second},
		{"once the minute has passed", l1, "connect:c1", t0.Add(time.Minute + time.Millisecond), true, 0},
		{"then the window holds one", l0, "connect:c1", t0.Add(time.Minute + 2*time.Millisecond), true, 0},
	} {
		ok, wait, err := c.l.TakePost(bg, c.author, c.at, limit)
		if err != nil || ok != c.ok || wait != c.wait {
			t.Errorf("%s: TakePost = %v, %v, %v; want %v, %v", c.name, ok, wait, err, c.ok, c.wait)
		}
	}
}
