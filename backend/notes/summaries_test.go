package notes

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A Done summary becomes an article of the workspace's "Session summaries"
// base, created with the first summary; completing it writes a new version
// of the same article; a second summary is a second article of one base.
func TestSessionSummariesAreKnowledgeArticles(t *testing.T) {
	f := newFixture(t, Options{})
	ctx := context.Background()
	first, err := f.s.SaveSessionSummary(ctx, "", "", "Fix the checkout", "# Fix the checkout\n\n- Kind: Terminal\n")
	if err != nil {
		t.Fatal(err)
	}
	if first.Workspace != "ws-1" {
		t.Fatalf("with no default workspace the first one holds the summaries, got %q", first.Workspace)
	}
	kb, err := f.s.KnowledgeBase(ctx, first.KB)
	if err != nil || kb.Name != SummariesBase {
		t.Fatalf("base %+v %v", kb, err)
	}
	a, err := f.s.GetArticle(ctx, first.KB, first.Article)
	if err != nil || a.Title != "Fix the checkout" || a.UpdatedBy != AuthorSessions || a.Version != 1 {
		t.Fatalf("article %+v %v", a, err)
	}
	again, err := f.s.SaveSessionSummary(ctx, "", first.Article, "Fix the checkout", "# Fix the checkout\n\n- Agent session: `abc`\n")
	if err != nil || again != first {
		t.Fatalf("completing the summary: %+v %v", again, err)
	}
	if a, _ := f.s.GetArticle(ctx, first.KB, first.Article); a.Version != 2 || !strings.Contains(a.Body, "abc") {
		t.Fatalf("completed summary is a new version: %+v", a)
	}
	second, err := f.s.SaveSessionSummary(ctx, "", "", "Write the release notes", "# Write the release notes\n")
	if err != nil || second.KB != first.KB || second.Article == first.Article {
		t.Fatalf("second summary %+v %v", second, err)
	}
	kbs, _ := f.s.ListKnowledgeBases(ctx, "ws-1")
	n := 0
	for _, k := range kbs {
		if k.Name == SummariesBase {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d Session summaries bases, want one", n)
	}
}

// Summary files written before are imported once: a second start imports
// nothing, even after the person deleted an imported article.
func TestSessionSummaryFilesImportedOnce(t *testing.T) {
	f := newFixture(t, Options{})
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "sessions")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "2026-11-01-090000-shop-old-run.md"), []byte("# Old run\n\n- Kind: Agent\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "2026-11-02-090000-shop-newer-run.md"), []byte("# Newer run\n"), 0o600)
	n, err := f.s.ImportSessionSummaries(ctx, dir)
	if err != nil || n != 2 {
		t.Fatalf("imported %d, %v", n, err)
	}
	ref, _ := f.s.SaveSessionSummary(ctx, "", "", "probe", "x")
	arts, _ := f.s.ListArticles(ctx, ref.KB)
	titles := map[string]string{}
	for _, a := range arts {
		titles[a.Title] = a.ID
	}
	if titles["Old run"] == "" || titles["Newer run"] == "" {
		t.Fatalf("articles %v", titles)
	}
	if err := f.s.DeleteArticle(ctx, ref.KB, titles["Old run"]); err != nil {
		t.Fatal(err)
	}
	if n, err := f.s.ImportSessionSummaries(ctx, dir); err != nil || n != 0 {
		t.Fatalf("second import: %d %v", n, err)
	}
}

// With no summary file yet, the import is still done once: a summary the
// board writes afterwards (already an article) is never imported again.
func TestSessionSummaryImportWithNoFilesIsDone(t *testing.T) {
	f := newFixture(t, Options{})
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "sessions")
	if n, err := f.s.ImportSessionSummaries(ctx, dir); err != nil || n != 0 {
		t.Fatalf("first import: %d %v", n, err)
	}
	os.WriteFile(filepath.Join(dir, "2026-11-03-090000-later.md"), []byte("# Later\n"), 0o600)
	if n, err := f.s.ImportSessionSummaries(ctx, dir); err != nil || n != 0 {
		t.Fatalf("a summary written after the import was imported: %d %v", n, err)
	}
}
