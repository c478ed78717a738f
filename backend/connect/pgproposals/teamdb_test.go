package pgproposals_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/connect/pgproposals"
	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/messages/pgmessages"
	"github.com/osfoundry/desktop/backend/pgdb"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

// Two replicas of the server, each with its own pool on one database that
// holds both the message and the proposal tables, take retried posts and
// proposal decisions at once: every post is written once whichever
// replica a retry reaches, every proposal is decided by exactly one
// person, and each replica reads the same result.
func TestPostsAndDecisionsFromTwoReplicasAtOnce(t *testing.T) {
	url := pgtest.Database(t)
	type replica struct {
		msgs  *messages.Store
		props *pgproposals.Rows
	}
	var r [2]replica
	for i := range r {
		pool, err := pgdb.Open(bg, url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(pool.Close)
		if i == 0 {
			if _, err := pool.Exec(bg, connectionsSQL+`;INSERT INTO connect_connections VALUES ('conn-1', 'Claude')`); err != nil {
				t.Fatal(err)
			}
		}
		mb, err := pgmessages.Open(bg, pool)
		if err != nil {
			t.Fatal(err)
		}
		props, err := pgproposals.Open(bg, pool)
		if err != nil {
			t.Fatal(err)
		}
		r[i] = replica{messages.New(mb, messages.Options{}), props}
	}
	ch, err := r[0].msgs.CreateChannel(bg, messages.NewChannel{Workspace: "ws-1", Name: "general"})
	if err != nil {
		t.Fatal(err)
	}
	const n, tries = 10, 4
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for i := range n {
		p := connect.Proposal{ID: fmt.Sprint("prop-", i), ConnectionID: "conn-1", Kind: "edit_note", Project: "p1",
			Title: "Fix", CreatedAt: t0}
		if ok, err := r[i%2].props.InsertPendingIfUnder(bg, p, n); err != nil || !ok {
			t.Fatalf("queueing %s = %v, %v", p.ID, ok, err)
		}
	}
	var mu sync.Mutex
	firstPosts := map[string]int{}    // key → posts written (not replayed)
	postIDs := map[string][]string{}  // key → message ids callers got
	deciders := map[string][]string{} // proposal → winners
	var wg sync.WaitGroup
	for i := range n {
		for try := range tries {
			wg.Add(2)
			go func() {
				defer wg.Done()
				key := fmt.Sprint("key-", i)
				m, replayed, err := r[try%2].msgs.PostMessage(bg, messages.Post{Channel: ch.ID, AuthorKind: messages.AuthorAssistant,
					Author: "connect:conn-1", Text: fmt.Sprint("post ", i), Key: key})
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				defer mu.Unlock()
				postIDs[key] = append(postIDs[key], m.ID)
				if !replayed {
					firstPosts[key]++
				}
			}()
			go func() {
				defer wg.Done()
				id, by := fmt.Sprint("prop-", i), fmt.Sprint("person-", try)
				ok, err := r[try%2].props.DecideIfPending(bg, id, connect.ProposalApproved, by, t0, nil)
				if err != nil {
					t.Error(err)
					return
				}
				if ok {
					mu.Lock()
					deciders[id] = append(deciders[id], by)
					mu.Unlock()
				}
			}()
		}
	}
	wg.Wait()
	for i := range n {
		key, id := fmt.Sprint("key-", i), fmt.Sprint("prop-", i)
		if firstPosts[key] != 1 {
			t.Errorf("%s: written %d times, want once (the other tries replay it)", key, firstPosts[key])
		}
		for _, got := range postIDs[key] {
			if got != postIDs[key][0] {
				t.Errorf("%s: callers got posts %v, want one post", key, postIDs[key])
				break
			}
		}
		if len(deciders[id]) != 1 {
			t.Errorf("%s: decided by %v, want exactly one person", id, deciders[id])
			continue
		}
		for _, rep := range r {
			p, err := rep.props.Proposal(bg, id)
			if err != nil || p.DecidedBy != deciders[id][0] || p.Connection != "Claude" {
				t.Errorf("%s read back as decided by %q (connection %q), %v; %s won", id, p.DecidedBy, p.Connection, err, deciders[id][0])
			}
		}
	}
	for i, rep := range r {
		ms, err := rep.msgs.ListMessages(bg, ch.ID, 0, messages.MaxListLimit)
		if err != nil || len(ms) != n {
			t.Errorf("replica %d reads %d posts, %v; want %d", i, len(ms), err, n)
		}
	}
}
