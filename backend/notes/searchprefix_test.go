package notes

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/store"
)

// Search matches a word by its beginning ("refu" finds "refunds"). The
// index keeps prefix indexes for word beginnings of 2–12 characters, so
// such a query reads one list instead of merging every matching word's
// postings (osfoundry-bench notes -only kbsearch: about half the time of a
// search over 10,000 articles); the hits are the same.
func TestSearchByWordBeginningUsesPrefixIndexes(t *testing.T) {
	f := newFixture(t, Options{})
	ctx := context.Background()
	var ddl string
	if err := f.s.db.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE name = 'search_fts'`).Scan(&ddl); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ddl, "prefix = '2 3 4 5 6 7 8 9 10 11 12'") {
		t.Fatalf("the full-text index has no prefix indexes: %s", ddl)
	}
	kb, err := f.s.CreateKnowledgeBase(ctx, "ws-1", "proj-a", "kb-1", "Support")
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range [][2]string{
		{"Refunds", "Refunds take 5 business days."},
		{"Shipping", "We ship worldwide; a refund is possible within 30 days."},
		{"Accounts", "Reset your password from the sign-in page."},
	} {
		if _, err := f.s.PutArticle(ctx, kb.ID, "", a[0], a[1]); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"refu", []string{"Refunds", "Shipping"}},
		{"refund", []string{"Refunds", "Shipping"}},
		{"refunds", []string{"Refunds"}},
		{"REFUNDS business", []string{"Refunds"}},
		{"passw", []string{"Accounts"}},
		{"worldwide30", nil},
	} {
		hits, err := f.s.SearchArticles(ctx, kb.ID, c.query, 10)
		if err != nil {
			t.Fatal(err)
		}
		got := []string{}
		for _, h := range hits {
			got = append(got, h.Title)
		}
		slices.Sort(got)
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("search %q found %v, want %v", c.query, got, c.want)
		}
	}
}

// A database indexed before the prefix indexes existed is re-indexed by
// the first search after the upgrade: nothing indexed before is lost.
func TestSearchAfterUpgradeToPrefixIndexes(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(filepath.Join(dir, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := store.Migrate(ctx, db, Component, migrations[:3]); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO workspaces (id, name, created_at) VALUES ('ws-1', 'Team', '2026-01-01T00:00:00Z')`,
		`INSERT INTO knowledge_bases (id, workspace_id, project_id, name, created_at) VALUES ('kb-1', 'ws-1', NULL, 'Support', '2026-01-01T00:00:00Z')`,
		`INSERT INTO knowledge_articles (id, knowledge_base_id, title, body, version, created_at, updated_at)
			VALUES ('art-1', 'kb-1', 'Refunds', 'Refunds take 5 business days.', 1, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`,
		// As the old index held it.
		`INSERT INTO search_fts (rowid, kind, ref, workspace, container, title, body)
			VALUES (1, 'knowledge_article', 'art-1', 'ws-1', 'kb-1', 'Refunds', 'Refunds take 5 business days.')`,
		`INSERT INTO search_state (kind, ref, stamp, fts_row) VALUES ('knowledge_article', 'art-1', '1', 1)`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	s, err := OpenWith(db, filepath.Join(dir, "knowledge"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	hits, err := s.SearchArticles(ctx, "kb-1", "refu", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].ArticleID != "art-1" {
		t.Fatalf("after the upgrade, search finds %+v; want art-1", hits)
	}
}
