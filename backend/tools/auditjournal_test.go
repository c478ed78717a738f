package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/store"
)

func openAuditor(t *testing.T, dir string) (*SQLAuditor, func()) {
	t.Helper()
	db, err := store.Open(filepath.Join(dir, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	a, err := NewSQLAuditor(context.Background(), db)
	if err != nil {
		db.Close()
		t.Fatal(err)
	}
	return a, func() {
		if err := a.Close(); err != nil {
			t.Errorf("closing the auditor: %v", err)
		}
		db.Close()
	}
}

func entry(i int) AuditEntry {
	return AuditEntry{At: time.Unix(1700000000, 0), Workspace: "w1", User: "u", Channel: "c", Source: "crash",
		Tool: fmt.Sprintf("tool_%d", i), Args: json.RawMessage(`{"i":` + fmt.Sprint(i) + `}`), Decision: DecisionRan}
}

func listed(t *testing.T, a *SQLAuditor) map[string]int {
	t.Helper()
	es, err := a.List(context.Background(), AuditQuery{Source: "crash", Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, e := range es {
		n[e.Tool]++
	}
	return n
}

func journals(t *testing.T, dir string) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, "audit-journal", "*"+journalExt))
	return m
}

// A journal imported once already (its process killed after the commit,
// before emptying it) adds nothing, and a line torn by the kill is skipped.
func TestAuditJournalImportsOnce(t *testing.T) {
	dir := t.TempDir()
	a, closeA := openAuditor(t, dir)
	gate := make(chan struct{})
	insert := a.j.insert
	a.j.insert = func(ctx context.Context, es []journalEntry) error { <-gate; return insert(ctx, es) }
	for i := range 3 {
		if err := a.Record(context.Background(), entry(i)); err != nil {
			t.Fatal(err)
		}
	}
	copyOf, err := os.ReadFile(a.j.f.Name())
	if err != nil {
		t.Fatal(err)
	}
	close(gate)
	closeA()
	torn := append(copyOf, []byte(`{"k":"9-9-9-1","tool":"tool_torn","work`)...)
	if err := os.WriteFile(filepath.Join(dir, "audit-journal", "1-2-3"+journalExt), torn, 0o600); err != nil {
		t.Fatal(err)
	}
	a, closeA = openAuditor(t, dir)
	defer closeA()
	got := listed(t, a)
	if len(got) != 3 || got["tool_0"] != 1 || got["tool_2"] != 1 {
		t.Fatalf("after importing a journal twice the audit lists %v, want tool_0…tool_2 once each", got)
	}
}

// Calls recorded from many goroutines while the audit is being listed are
// all there, once.
func TestAuditJournalConcurrent(t *testing.T) {
	dir := t.TempDir()
	a, closeA := openAuditor(t, dir)
	defer closeA()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 25 {
				if err := a.Record(context.Background(), entry(g*25+i)); err != nil {
					t.Error(err)
				}
				if i%10 == 0 {
					listed(t, a)
				}
			}
		}()
	}
	wg.Wait()
	got := listed(t, a)
	if len(got) != 200 {
		t.Fatalf("listed %d distinct calls, want 200", len(got))
	}
	for tool, n := range got {
		if n != 1 {
			t.Fatalf("%s listed %d times", tool, n)
		}
	}
}
