// Package proposaltest is the store test suite every connect.ProposalRows
// must pass: the desktop's SQLite table and the team server's PostgreSQL
// one (pgproposals). It checks the rows through the interface only, so
// the rules in connect.Service (the pending limit, states decided once,
// change sets applied before they read approved) can rely on the same
// behaviour from both, including from two processes or server replicas
// on one database at once. Only tests import it.
package proposaltest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/connect"
)

// Env is one fresh, empty store under test.
type Env struct {
	Rows connect.ProposalRows
	// AddConnection creates a connection named name and returns its id.
	AddConnection func(t *testing.T, name string) string
	// Replica opens second rows on the same database, as another process
	// or server replica would.
	Replica func(t *testing.T) connect.ProposalRows
}

// RunSuite runs every check against a fresh store from open.
func RunSuite(t *testing.T, open func(t *testing.T) Env) {
	for _, c := range []struct {
		name string
		run  func(t *testing.T, e Env)
	}{
		{"RoundTripAndOrder", roundTrip},
		{"PendingLimitPerConnection", pendingLimit},
		{"DecidedOnce", decidedOnce},
		{"OutcomeKeepsStatus", outcomeKeepsStatus},
		{"ChangeSetRoundTrip", changeSetRoundTrip},
		{"RequestAndImportRoundTrip", requestAndImportRoundTrip},
		{"UnstorableIDsAreNotFound", oddLookups},
		{"DecidedOnceAcrossReplicas", decidedOnceAcrossReplicas},
		{"PendingLimitAcrossReplicas", pendingLimitAcrossReplicas},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t, open(t)) })
	}
}

var bg = context.Background()

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func proposal(id, conn string, at time.Time) connect.Proposal {
	return connect.Proposal{ID: id, ConnectionID: conn, Kind: "edit_note", Project: "proj-1", Target: "note-1",
		Title: "Fix the intro", Files: []string{}, Details: "why", Status: connect.ProposalPending, CreatedAt: at,
		Changes: []connect.FileChange{}}
}

func insert(t *testing.T, e Env, p connect.Proposal, max int) bool {
	t.Helper()
	ok, err := e.Rows.InsertPendingIfUnder(bg, p, max)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

func roundTrip(t *testing.T, e Env) {
	conn := e.AddConnection(t, "Claude at work")
	plain := proposal("prop-a", conn, t0)
	plain.Files = []string{"a.md", "b.md"}
	cs := proposal("prop-b", conn, t0.Add(time.Second))
	cs.Kind = "change_set"
	cs.Changes = []connect.FileChange{{Path: "new.txt", After: "hello\n", Added: true}, {Path: "old.txt", Before: "x", After: "y"}}
	cs.Patch = ""
	same := proposal("prop-c", conn, t0.Add(time.Second)) // same time as prop-b: id breaks the tie
	for _, p := range []connect.Proposal{plain, cs, same} {
		if !insert(t, e, p, 10) {
			t.Fatalf("%s was not stored", p.ID)
		}
	}
	got, err := e.Rows.Proposal(bg, "prop-b")
	if err != nil {
		t.Fatal(err)
	}
	if got.Connection != "Claude at work" || got.Status != connect.ProposalPending || !got.CreatedAt.Equal(cs.CreatedAt) ||
		fmt.Sprint(got.Changes) != fmt.Sprint(cs.Changes) || !got.DecidedAt.IsZero() || got.DecidedBy != "" {
		t.Errorf("Proposal(prop-b) = %+v", got)
	}
	a, err := e.Rows.Proposal(bg, "prop-a")
	if err != nil || fmt.Sprint(a.Files) != "[a.md b.md]" || a.Details != "why" || a.Target != "note-1" || len(a.Changes) != 0 {
		t.Errorf("Proposal(prop-a) = %+v, %v", a, err)
	}
	if _, err := e.Rows.Proposal(bg, "prop-none"); !errors.Is(err, connect.ErrNotFound) {
		t.Errorf("Proposal of an unknown id: %v, want ErrNotFound", err)
	}
	all, err := e.Rows.Proposals(bg, "")
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, p := range all {
		order = append(order, p.ID)
	}
	if fmt.Sprint(order) != "[prop-b prop-c prop-a]" {
		t.Errorf("Proposals = %v, want newest first, then by id", order)
	}
	none, err := e.Rows.Proposals(bg, connect.ProposalDeclined)
	if err != nil || none == nil || len(none) != 0 {
		t.Errorf("Proposals(declined) = %v, %v; want an empty list", none, err)
	}
}

func pendingLimit(t *testing.T, e Env) {
	c1, c2 := e.AddConnection(t, "one"), e.AddConnection(t, "two")
	const max = 3
	// Concurrent calls of one connection never pass the limit together.
	var wg sync.WaitGroup
	var mu sync.Mutex
	stored := 0
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := e.Rows.InsertPendingIfUnder(bg, proposal(fmt.Sprint("prop-", i), c1, t0), max)
			if err != nil {
				t.Error(err)
				return
			}
			if ok {
				mu.Lock()
				stored++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if stored != max {
		t.Fatalf("%d of 8 concurrent proposals were stored, want %d", stored, max)
	}
	if !insert(t, e, proposal("prop-other", c2, t0), max) {
		t.Error("another connection's proposal was refused: the limit is per connection")
	}
	pending, err := e.Rows.Proposals(bg, connect.ProposalPending)
	if err != nil {
		t.Fatal(err)
	}
	decided := ""
	for _, p := range pending {
		if p.ConnectionID == c1 {
			decided = p.ID
			break
		}
	}
	ok, err := e.Rows.DecideIfPending(bg, decided, connect.ProposalDeclined, "owner", t0, nil)
	if err != nil || !ok {
		t.Fatalf("DecideIfPending(%q) = %v, %v", decided, ok, err)
	}
	if !insert(t, e, proposal("prop-after", c1, t0), max) {
		t.Error("a decided proposal still counts against the limit")
	}
}

func decidedOnce(t *testing.T, e Env) {
	conn := e.AddConnection(t, "Claude")
	insert(t, e, proposal("prop-1", conn, t0), 10)
	at := t0.Add(time.Minute)
	ok, err := e.Rows.DecideIfPending(bg, "prop-1", connect.ProposalApproved, "owner", at, &connect.Outcome{Branch: "osfoundry/proposal-prop-1", Commit: "abc"})
	if err != nil || !ok {
		t.Fatalf("first decision = %v, %v", ok, err)
	}
	ok, err = e.Rows.DecideIfPending(bg, "prop-1", connect.ProposalDeclined, "someone", at.Add(time.Minute), nil)
	if err != nil || ok {
		t.Fatalf("second decision = %v, %v; want refused", ok, err)
	}
	p, err := e.Rows.Proposal(bg, "prop-1")
	if err != nil {
		t.Fatal(err)
	}
	if p.Status != connect.ProposalApproved || p.DecidedBy != "owner" || !p.DecidedAt.Equal(at) || p.Branch != "osfoundry/proposal-prop-1" || p.Commit != "abc" {
		t.Errorf("after two decisions: %+v", p)
	}
	if ok, err := e.Rows.DecideIfPending(bg, "prop-none", connect.ProposalApproved, "owner", at, nil); err != nil || ok {
		t.Errorf("deciding an unknown proposal = %v, %v; want false", ok, err)
	}
}

func outcomeKeepsStatus(t *testing.T, e Env) {
	conn := e.AddConnection(t, "Claude")
	insert(t, e, proposal("prop-1", conn, t0), 10)
	if err := e.Rows.SetOutcome(bg, "prop-1", connect.Outcome{Problem: "the patch does not apply"}); err != nil {
		t.Fatal(err)
	}
	p, err := e.Rows.Proposal(bg, "prop-1")
	if err != nil {
		t.Fatal(err)
	}
	if p.Status != connect.ProposalPending || p.Problem != "the patch does not apply" {
		t.Errorf("after SetOutcome: status %q, problem %q", p.Status, p.Problem)
	}
}
