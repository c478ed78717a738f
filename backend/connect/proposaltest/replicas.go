package proposaltest

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/connect"
)

// changeSetRoundTrip: a change set keeps its files' text exactly, whatever
// it holds (a NUL character, invalid UTF-8 replaced as JSON does,
// non-ASCII), its patch, and the outcome approving it recorded.
func changeSetRoundTrip(t *testing.T, e Env) {
	conn := e.AddConnection(t, "Claude")
	cs := proposal("prop-cs", conn, t0.Add(1500*time.Microsecond)) // kept to the millisecond
	cs.Kind = connect.KindChangeSet
	cs.Changes = []connect.FileChange{{Path: "bin.dat", Before: "a\x00b", After: "ünïcödé\n"}, {Path: "new.md", After: "x", Added: true}}
	patch := proposal("prop-patch", conn, t0)
	patch.Kind = connect.KindChangeSet
	patch.Patch = "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"
	for _, p := range []connect.Proposal{cs, patch} {
		if !insert(t, e, p, 10) {
			t.Fatalf("%s was not stored", p.ID)
		}
	}
	got, err := e.Rows.Proposal(bg, "prop-cs")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Changes, cs.Changes) || got.Patch != "" || !got.CreatedAt.Equal(t0.Add(time.Millisecond)) {
		t.Errorf("change set read back as %+v, patch %q, created %v", got.Changes, got.Patch, got.CreatedAt)
	}
	o := connect.Outcome{Branch: "osfoundry/proposal-prop-patch", Commit: "abc123", Diff: "+b\n"}
	if ok, err := e.Rows.DecideIfPending(bg, "prop-patch", connect.ProposalApproved, "owner", t0, &o); err != nil || !ok {
		t.Fatalf("approving the patch = %v, %v", ok, err)
	}
	got, err = e.Rows.Proposal(bg, "prop-patch")
	if err != nil || got.Patch != patch.Patch || len(got.Changes) != 0 || !reflect.DeepEqual(got.Outcome, o) {
		t.Errorf("patch read back as %q, changes %v, outcome %+v, %v", got.Patch, got.Changes, got.Outcome, err)
	}
	// A decision without an outcome keeps the one recorded before.
	if err := e.Rows.SetOutcome(bg, "prop-cs", connect.Outcome{Problem: "stale"}); err != nil {
		t.Fatal(err)
	}
	if ok, err := e.Rows.DecideIfPending(bg, "prop-cs", connect.ProposalDeclined, "owner", t0, nil); err != nil || !ok {
		t.Fatalf("declining = %v, %v", ok, err)
	}
	if got, _ := e.Rows.Proposal(bg, "prop-cs"); got.Problem != "stale" || got.Status != connect.ProposalDeclined {
		t.Errorf("after declining: %q, problem %q", got.Status, got.Problem)
	}
}

// requestAndImportRoundTrip: a pull request's branch and base and a file
// import's destination and files are kept, and so are the pull request's
// link and the versions an import wrote once approved.
func requestAndImportRoundTrip(t *testing.T, e Env) {
	conn := e.AddConnection(t, "Claude")
	pr := proposal("prop-pr", conn, t0)
	pr.Kind = connect.KindPullRequest
	pr.Patch = "diff --git a/x b/x\n"
	pr.Request = &connect.PullRequestAsk{Branch: "osf/x", Base: "main", Body: "Why", Forge: "https://example.org/o/r"}
	imp := proposal("prop-imp", conn, t0)
	imp.Kind = connect.KindFileImport
	imp.Changes = []connect.FileChange{{Path: "a.md", After: "# A", Added: true}}
	imp.Import = &connect.FileImportAsk{Into: connect.ImportIntoNote, ID: "note-1", Title: "Plan", Files: []connect.ImportFile{{Name: "a.md", Content: "# A"}}}
	for _, p := range []connect.Proposal{pr, imp} {
		if !insert(t, e, p, 10) {
			t.Fatalf("%s was not stored", p.ID)
		}
		got, err := e.Rows.Proposal(bg, p.ID)
		if err != nil || !reflect.DeepEqual(got.Request, p.Request) || !reflect.DeepEqual(got.Import, p.Import) || got.Patch != p.Patch {
			t.Errorf("%s read back as request %+v, import %+v, patch %q, %v", p.ID, got.Request, got.Import, got.Patch, err)
		}
	}
	o := connect.Outcome{Branch: "osf/x", URL: "https://example.org/o/r/pulls/7", Number: 7}
	if ok, err := e.Rows.DecideIfPending(bg, "prop-pr", connect.ProposalApproved, "owner", t0, &o); err != nil || !ok {
		t.Fatalf("approving the pull request = %v, %v", ok, err)
	}
	if got, _ := e.Rows.Proposal(bg, "prop-pr"); !reflect.DeepEqual(got.Outcome, o) {
		t.Errorf("pull request outcome read back as %+v", got.Outcome)
	}
	oi := connect.Outcome{Imported: []connect.Imported{{Name: "a.md", ID: "tab-1", Version: 3}}}
	if ok, err := e.Rows.DecideIfPending(bg, "prop-imp", connect.ProposalApproved, "owner", t0, &oi); err != nil || !ok {
		t.Fatalf("approving the import = %v, %v", ok, err)
	}
	if got, _ := e.Rows.Proposal(bg, "prop-imp"); !reflect.DeepEqual(got.Outcome, oi) {
		t.Errorf("import outcome read back as %+v", got.Outcome)
	}
}

// oddLookups: ids no proposal could have (a NUL character, invalid UTF-8,
// which callers may send) are simply not found, on every engine.
func oddLookups(t *testing.T, e Env) {
	for _, id := range []string{"prop\x00a", "prop\xffa"} {
		if _, err := e.Rows.Proposal(bg, id); !errors.Is(err, connect.ErrNotFound) {
			t.Errorf("Proposal(%q): %v, want ErrNotFound", id, err)
		}
		if ok, err := e.Rows.DecideIfPending(bg, id, connect.ProposalApproved, "owner", t0, nil); ok || err != nil {
			t.Errorf("DecideIfPending(%q) = %v, %v; want false", id, ok, err)
		}
		if err := e.Rows.SetOutcome(bg, id, connect.Outcome{Problem: "x"}); err != nil {
			t.Errorf("SetOutcome(%q): %v", id, err)
		}
		if ps, err := e.Rows.Proposals(bg, id); err != nil || len(ps) != 0 {
			t.Errorf("Proposals(%q) = %v, %v; want none", id, ps, err)
		}
	}
}

// decidedOnceAcrossReplicas: six people decide each of ten proposals at
// once, three on each replica. Exactly one decision per proposal wins and
// the stored one is the winner's.
func decidedOnceAcrossReplicas(t *testing.T, e Env) {
	rows := [2]connect.ProposalRows{e.Rows, e.Replica(t)}
	conn := e.AddConnection(t, "Claude")
	const proposals, deciders = 10, 6
	for i := range proposals {
		insert(t, e, proposal(fmt.Sprint("prop-", i), conn, t0), proposals)
	}
	var mu sync.Mutex
	winners := map[string][]string{}
	var wg sync.WaitGroup
	for i := range proposals {
		for d := range deciders {
			wg.Add(1)
			go func() {
				defer wg.Done()
				id, by := fmt.Sprint("prop-", i), fmt.Sprint("person-", d)
				status := connect.ProposalApproved
				if d%3 == 0 {
					status = connect.ProposalDeclined
				}
				ok, err := rows[d%2].DecideIfPending(bg, id, status, by, t0.Add(time.Duration(d)*time.Second), nil)
				if err != nil {
					t.Error(err)
					return
				}
				if ok {
					mu.Lock()
					winners[id] = append(winners[id], by)
					mu.Unlock()
				}
			}()
		}
	}
	wg.Wait()
	for i := range proposals {
		id := fmt.Sprint("prop-", i)
		if len(winners[id]) != 1 {
			t.Errorf("%s: decided by %v, want exactly one", id, winners[id])
			continue
		}
		p, err := rows[(i+1)%2].Proposal(bg, id)
		if err != nil {
			t.Fatal(err)
		}
		if p.DecidedBy != winners[id][0] || p.Status == connect.ProposalPending {
			t.Errorf("%s: stored %s by %s, but %s won", id, p.Status, p.DecidedBy, winners[id][0])
		}
	}
}

// pendingLimitAcrossReplicas: sixteen proposals of one connection queued
// at once, half on each replica, never pass the limit together.
func pendingLimitAcrossReplicas(t *testing.T, e Env) {
	rows := [2]connect.ProposalRows{e.Rows, e.Replica(t)}
	conn := e.AddConnection(t, "Claude")
	const max, tries = 4, 16
	var mu sync.Mutex
	stored := 0
	var wg sync.WaitGroup
	for i := range tries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := rows[i%2].InsertPendingIfUnder(bg, proposal(fmt.Sprint("prop-", i), conn, t0), max)
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
	pending, err := rows[1].Proposals(bg, connect.ProposalPending)
	if err != nil {
		t.Fatal(err)
	}
	if stored != max || len(pending) != max {
		t.Errorf("%d of %d concurrent proposals reported stored, %d pending; want %d", stored, tries, len(pending), max)
	}
}
