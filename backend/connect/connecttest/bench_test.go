package connecttest

import (
	"context"
	"testing"
	"time"
)

// The bench's own logic: it must complete a real discovery, see allowed
// and denied checks, and make authorized calls. No timing is asserted.
func TestBenchRuns(t *testing.T) {
	r, err := Bench(context.Background(), BenchOptions{Dir: t.TempDir(), Discoveries: 2, Checks: 10, Clients: 2, Duration: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Discovery) != 2 || len(r.StepOrder) != 5 || len(r.CheckAllowed) != 5 || len(r.CheckDeny) != 5 || r.Calls == 0 {
		t.Fatalf("bench result: discovery %d, steps %v, checks %d/%d, calls %d",
			len(r.Discovery), r.StepOrder, len(r.CheckAllowed), len(r.CheckDeny), r.Calls)
	}
}
