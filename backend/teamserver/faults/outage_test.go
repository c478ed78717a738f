package faults

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

// PostgreSQL stops (immediate mode, like a crash) while assistants call
// tools through the balancer, and starts again. While it is away every
// replica answers a tool call 503 with Retry-After, never a 500 or a 401
// that would make the assistant drop its token; once it is back, the
// same token's calls and guarded writes succeed again on both replicas,
// with no replica restarted.
func TestPostgreSQLRestartUnderLoadIs503ThenRecovers(t *testing.T) {
	tm := teamtest.StartTeam(t, pgtest.Database(t), 2)
	ns := tm.SeedNotes(t, "proj-outage", 1)
	_, token := tm.Connect(t, "Claude", nil, "proj-outage")
	search := map[string]any{"query": "budget"}

	// Load: four assistants searching through the balancer all along.
	var mu sync.Mutex
	phase := "before"
	seen := map[string]map[int]int{} // phase → status → count
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				a := call(tm, token, "memory_search", search)
				mu.Lock()
				if seen[phase] == nil {
					seen[phase] = map[int]int{}
				}
				seen[phase][a.Status]++
				mu.Unlock()
			}
		}()
	}
	setPhase := func(p string) { mu.Lock(); phase = p; mu.Unlock() }
	defer func() { close(stop); wg.Wait() }()

	waitFor(t, "calls succeed under load", func() bool { mu.Lock(); defer mu.Unlock(); return seen["before"][http.StatusOK] >= 20 })
	pg := pgtest.Shared(t)
	setPhase("stopping")
	if err := pg.Stop(); err != nil {
		t.Fatal(err)
	}
	setPhase("down")
	for i, r := range tm.Replicas {
		var a answer
		waitFor(t, fmt.Sprintf("r%d answers 503", i+1), func() bool {
			a = callAt(http.DefaultClient, r.URL, token, "memory_search", search)
			return a.Status == http.StatusServiceUnavailable
		})
		if a.Retry == "" {
			t.Errorf("r%d's 503 has no Retry-After: %v", i+1, a)
		}
		if a := callAt(http.DefaultClient, r.URL, token, "edit_note_tab", map[string]any{"note_id": ns[0].ID, "tab_id": ns[0].Tab,
			"expected_version": ns[0].Version, "idempotency_key": "outage-write-1", "operation": "replace_text", "text": "while away"}); a.Status != http.StatusServiceUnavailable {
			t.Errorf("a write on r%d while PostgreSQL is away: %v, want 503", i+1, a)
		}
	}
	waitFor(t, "the balancer's answers turn 503", func() bool { return call(tm, token, "memory_search", search).Status == http.StatusServiceUnavailable })

	setPhase("starting")
	if err := pg.Start(); err != nil {
		t.Fatal(err)
	}
	setPhase("back")
	for i, r := range tm.Replicas {
		waitFor(t, fmt.Sprintf("r%d answers tool calls again", i+1), func() bool {
			a := callAt(http.DefaultClient, r.URL, token, "memory_search", search)
			return a.delivered() && !a.IsError
		})
	}
	waitFor(t, "calls through the balancer succeed again", func() bool { mu.Lock(); defer mu.Unlock(); return seen["back"][http.StatusOK] >= 20 })
	// The same key with other text: had the refused write been half kept,
	// this would be refused as a reuse of the key.
	// A 503 here is the balancer still between health checks (as an
	// assistant would, the write is sent again after it); anything else
	// ends the wait.
	var a answer
	waitFor(t, "a guarded write to get past the balancer", func() bool {
		a = call(tm, token, "edit_note_tab", map[string]any{"note_id": ns[0].ID, "tab_id": ns[0].Tab,
			"expected_version": ns[0].Version, "idempotency_key": "outage-write-1", "operation": "replace_text", "text": "after"})
		return a.Status != http.StatusServiceUnavailable
	})
	if !a.delivered() || a.IsError {
		t.Errorf("a guarded write after PostgreSQL came back: %v", a)
	}
	for i, r := range tm.Replicas {
		if r.Exited() {
			t.Errorf("r%d exited: %s", i+1, r.Stderr())
		}
	}
	mu.Lock()
	defer mu.Unlock()
	t.Logf("statuses under load: %v", seen)
	for p, codes := range seen {
		for code := range codes {
			if code != http.StatusOK && code != http.StatusServiceUnavailable {
				t.Errorf("a call got %d (%s); want only 200 and 503", code, p)
			}
		}
	}
}

// waitFor polls cond until it holds, failing t after wait.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for: %s", wait, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
