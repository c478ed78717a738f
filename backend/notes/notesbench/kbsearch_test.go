package notesbench

import (
	"context"
	"testing"
)

// Every timed search_knowledge_base call must find the article it looks
// for, or the timing measures an empty answer.
func TestKBSearchFindsEveryTarget(t *testing.T) {
	r, err := KBSearch(context.Background(), t.TempDir(), 500, 40)
	if err != nil {
		t.Fatal(err)
	}
	if r.Found != 40 || r.Calls != 40 {
		t.Fatalf("found %d of %d targets", r.Found, r.Calls)
	}
	if r.P50 <= 0 || r.P95 < r.P50 {
		t.Fatalf("p50 %v, p95 %v", r.P50, r.P95)
	}
}
