package inventory

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/osfoundry/desktop/backend/store"
)

// indexedScaleCorpus generates the 1,000-session corpus and indexes it once.
func indexedScaleCorpus(b *testing.B) (Corpus, *Service) {
	b.Helper()
	c, err := GenerateScaleCorpus(b.TempDir(), 1000)
	if err != nil {
		b.Fatal(err)
	}
	svc, err := New(context.Background(), nil, Options{Env: Env{Home: c.Home, GOOS: "linux"}, Runner: &fakeRunner{}})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := svc.Refresh(context.Background()); err != nil {
		b.Fatal(err)
	}
	return c, svc
}

// BenchmarkWarmRefresh1k is the warm refresh of the 1,000-session scale
// corpus with nothing changed (target ≤ 3 ms; `osfoundry-bench sessions`
// reports it beside the other measures).
func BenchmarkWarmRefresh1k(b *testing.B) {
	_, svc := indexedScaleCorpus(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if changed, err := svc.Refresh(context.Background()); err != nil || changed {
			b.Fatalf("warm refresh: changed=%v err=%v", changed, err)
		}
	}
}

// BenchmarkNarrowRefresh1k is the watcher's refresh after a change in one
// project folder of the same corpus: only that folder is listed.
func BenchmarkNarrowRefresh1k(b *testing.B) {
	c, svc := indexedScaleCorpus(b)
	dirs := claudeProjectDirs(Env{Home: c.Home})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := svc.RefreshDirs(context.Background(), dirs[i%len(dirs):i%len(dirs)+1]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkColdIndexSeed is the cold index of the reference-shaped corpus
// (52 sessions) into a fresh database each time, as `osfoundry-bench
// sessions` times it beside the reference indexer.
func BenchmarkColdIndexSeed(b *testing.B) {
	c, err := GenerateSeedCorpus(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		db, err := store.Open(filepath.Join(dir, fmt.Sprintf("cold%d.db", i)))
		if err != nil {
			b.Fatal(err)
		}
		svc, err := New(context.Background(), db, Options{Env: Env{Home: c.Home, GOOS: "linux"}, Runner: &fakeRunner{}})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := svc.Refresh(context.Background()); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		db.Close()
		b.StartTimer()
	}
}
