package faults

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

// A replica is SIGKILLed while assistants make guarded note writes on
// both replicas. Each writer appends one line per write with
// expected_version and an idempotency key; when its replica does not
// answer it resends the very same call (same key, same version) to the
// other replica, as an assistant's retry behind a balancer lands there.
// A write the killed replica committed before dying comes back as its
// first result, one it did not is applied once. Afterwards every Note
// holds each line exactly once and its version rose by exactly the
// number of writes: nothing lost, nothing applied twice.
func TestAReplicaKilledMidWriteLosesAndDoublesNothing(t *testing.T) {
	tm := teamtest.StartTeam(t, pgtest.Database(t), 2)
	const writers, writes = 4, 30
	ns := tm.SeedNotes(t, "proj-faults", writers)
	_, token := tm.Connect(t, "Codex", nil, "proj-faults")

	var done atomic.Int32 // writes answered
	var retried atomic.Int32
	killed := make(chan struct{})
	var victimServed atomic.Int32 // writes the killed replica answered
	errs := make(chan error, writers)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := ns[w]
			text, version := "", n.Version
			at := w % 2 // writers start on both replicas
			for i := range writes {
				text += fmt.Sprintf("line %d\n", i)
				args := map[string]any{"note_id": n.ID, "tab_id": n.Tab, "expected_version": version,
					"idempotency_key": fmt.Sprintf("kill-%d-%d-%s", w, i, n.ID), "operation": "replace_text", "text": text}
				deadline := time.Now().Add(wait)
				a := callAt(http.DefaultClient, tm.Replicas[at].URL, token, "edit_note_tab", args)
				for !a.delivered() {
					if time.Now().After(deadline) {
						errs <- fmt.Errorf("writer %d, write %d: still no answer: %v", w, i, a)
						return
					}
					retried.Add(1)
					at = 1 - at
					a = callAt(http.DefaultClient, tm.Replicas[at].URL, token, "edit_note_tab", args)
				}
				if a.IsError {
					errs <- fmt.Errorf("writer %d, write %d refused: %v", w, i, a)
					return
				}
				v, _ := a.Result["version"].(float64)
				if int64(v) != version+1 {
					errs <- fmt.Errorf("writer %d, write %d: version %v after %d, want %d: %v", w, i, v, version, version+1, a)
					return
				}
				version = int64(v)
				select {
				case <-killed:
				default:
					if at == 0 {
						victimServed.Add(1)
					}
				}
				done.Add(1)
			}
		}()
	}
	// Kill r1 once the writers are under way: a third of all writes
	// answered, so writes are in flight on both replicas.
	for done.Load() < writers*writes/3 {
		select {
		case err := <-errs:
			t.Fatal(err)
		case <-time.After(10 * time.Millisecond):
		}
	}
	if err := tm.Replicas[0].Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	close(killed)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		return
	}
	if victimServed.Load() == 0 || retried.Load() == 0 {
		t.Fatalf("the killed replica answered %d writes and %d calls were resent; the test proved nothing", victimServed.Load(), retried.Load())
	}
	if !tm.Replicas[0].Exited() {
		t.Fatal("r1 still runs after SIGKILL")
	}
	t.Logf("r1 answered %d writes before it was killed; %d calls were resent", victimServed.Load(), retried.Load())

	for w, n := range ns {
		a := call(tm, token, "read_note_tab", map[string]any{"note_id": n.ID, "tab_id": n.Tab})
		if !a.delivered() || a.IsError {
			t.Fatalf("reading note %d: %v", w, a)
		}
		got := fmt.Sprint(a.Result["text"])
		if a.Result["text"] == nil {
			got = a.Text
		}
		for i := range writes {
			line := fmt.Sprintf("line %d\n", i)
			if c := strings.Count(got, line); c != 1 {
				t.Errorf("note %d holds %q %d times, want once", w, line, c)
			}
		}
		if v, _ := a.Result["version"].(float64); int64(v) != n.Version+writes {
			t.Errorf("note %d is at version %v, want %d (%d writes on version %d)", w, v, n.Version+writes, writes, n.Version)
		}
	}
}
