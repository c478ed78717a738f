package inventory

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/store"
)

// countingAdapter wraps an adapter and counts what the index asks of it.
type countingAdapter struct {
	Adapter
	units, reads atomic.Int64
}

func (c *countingAdapter) Units(ctx context.Context, env Env) ([]Unit, error) {
	c.units.Add(1)
	return c.Adapter.Units(ctx, env)
}

func (c *countingAdapter) Read(ctx context.Context, env Env, u Unit) ([]Session, error) {
	c.reads.Add(1)
	return c.Adapter.Read(ctx, env, u)
}

func withCounter(svc *Service) *countingAdapter {
	c := &countingAdapter{Adapter: svc.ix.adapters[0]} // Claude Code
	svc.ix.adapters[0] = c
	return c
}

func TestIndexRereadsOnlyWhatChanged(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, ".claude", "projects", "-w")
	a := write(t, filepath.Join(proj, "a.jsonl"), claudeLines("a", "/w", "main", "first a"))
	write(t, filepath.Join(proj, "b.jsonl"), claudeLines("b", "/w", "main", "first b"))
	db, err := store.Open(filepath.Join(t.TempDir(), "app.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := newTestService(t, home, db, nil)
	c := withCounter(svc)
	refresh(t, svc)
	if c.reads.Load() != 2 {
		t.Fatalf("cold: %d reads", c.reads.Load())
	}
	if changed, _ := svc.Refresh(context.Background()); changed || c.reads.Load() != 2 {
		t.Fatalf("warm: changed=%v reads=%d", changed, c.reads.Load())
	}
	f, _ := os.OpenFile(a, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(jsonl(m{"type": "custom-title", "customTitle": "grown"}))
	f.Close()
	if changed, _ := svc.Refresh(context.Background()); !changed || c.reads.Load() != 3 {
		t.Fatalf("after growth: changed=%v reads=%d", changed, c.reads.Load())
	}
	if s := find(t, svc, "claude-code:a"); s.Title != "grown" {
		t.Fatalf("title %q", s.Title)
	}
	// A new service on the same database lists from the cache before any
	// store is read, and its first refresh reads nothing.
	svc2 := newTestService(t, home, db, nil)
	c2 := withCounter(svc2)
	if len(svc2.List("", "")) != 2 {
		t.Fatal("cache not loaded from the database")
	}
	refresh(t, svc2)
	if c2.reads.Load() != 0 {
		t.Fatalf("warm start read %d files", c2.reads.Load())
	}
	os.Remove(a)
	refresh(t, svc2)
	if len(svc2.List("", "")) != 1 {
		t.Fatal("a deleted transcript stays listed")
	}
}

func TestAppSwitchedOffIsNeverRead(t *testing.T) {
	home := t.TempDir()
	write(t, filepath.Join(home, ".claude", "projects", "-w", "a.jsonl"), claudeLines("a", "/w", "main", "x"))
	db, err := store.Open(filepath.Join(t.TempDir(), "app.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := newTestService(t, home, db, nil)
	refresh(t, svc)
	if err := svc.SetAppEnabled(context.Background(), ClaudeCode, false); err != nil {
		t.Fatal(err)
	}
	if len(svc.List("", "")) != 0 {
		t.Fatal("switched-off app still listed")
	}
	// At start-up: the setting is persisted and the store is never touched.
	svc2 := newTestService(t, home, db, nil)
	c := withCounter(svc2)
	refresh(t, svc2)
	if c.units.Load() != 0 || c.reads.Load() != 0 || len(svc2.List("", "")) != 0 {
		t.Fatalf("switched-off app read at start-up: units=%d reads=%d", c.units.Load(), c.reads.Load())
	}
	for _, a := range svc2.Apps() {
		if a.App == ClaudeCode && a.Enabled {
			t.Fatal("setting not persisted")
		}
	}
	if err := svc2.SetAppEnabled(context.Background(), ClaudeCode, true); err != nil {
		t.Fatal(err)
	}
	if len(svc2.List("", "")) != 1 {
		t.Fatal("switching back on should list again")
	}
	if err := svc2.SetAppEnabled(context.Background(), "nope", true); err == nil {
		t.Fatal("unknown app accepted")
	}
}

func TestWatcherReportsNewSessions(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, ".claude", "projects", "-w")
	write(t, filepath.Join(proj, "a.jsonl"), claudeLines("a", "/w", "main", "x"))
	svc := newTestService(t, home, nil, nil)
	changed := make(chan struct{}, 10)
	unsub := svc.OnChange(func() { changed <- struct{}{} })
	defer unsub()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := svc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	<-changed // the first refresh
	write(t, filepath.Join(proj, "b.jsonl"), claudeLines("b", "/w", "main", "started in a terminal"))
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("no change reported for a new session")
	}
	find(t, svc, "claude-code:b")
}
