package pgnotes_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/store"
)

// engines opens the same Store on both engines: the desktop's SQLite file
// with its FTS5 index, and the team server's PostgreSQL database.
func engines(t *testing.T) map[string]*notes.Store {
	db, err := store.Open(filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	lite, err := notes.Open(db, filepath.Join(t.TempDir(), "knowledge"))
	if err != nil {
		t.Fatal(err)
	}
	pg, _ := openDB(t)
	return map[string]*notes.Store{"sqlite": lite, "postgres": notes.OpenBackend(pg, pg, notes.Options{})}
}

// seedSearch writes the same Notes and articles through the Store's own
// methods, so each engine indexes them its way.
func seedSearch(t *testing.T, s *notes.Store) {
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, ws := range []string{"ws", "ws2"} {
		_, err := s.CreateWorkspace(ctx, ws, ws)
		must(err)
	}
	note := func(id, ws, title, text string) {
		_, err := s.CreateNote(ctx, notes.NewNote{ID: id, Workspace: ws, Title: title, Text: text})
		must(err)
	}
	note("n-plan", "ws", "Launch plan", "First deploy the API, then announce it.\nIf the error rate climbs, rollback at once.")
	note("n-cafe", "ws", "Offsite", "Lunch at the Café Müller; bring your résumé.")
	note("n-other", "ws2", "Secret launch", "A rollback plan of another workspace.")
	note("n-sheet", "ws", "Budget", "")
	res, tab, err := s.AddTabAsPerson(ctx, "n-sheet", 1, notes.KindSheet, "Numbers")
	must(err)
	_, err = s.SaveCellsAsPerson(ctx, "n-sheet", tab.ID, res.Version, "sheet-1", 0, 0, [][]any{{"Quarterly forecast", 42.0}, {true, "headcount"}})
	must(err)
	for _, kb := range []notes.KnowledgeBase{{ID: "kb-ops", Name: "Operations"}, {ID: "kb-hr", Name: "People"}} {
		_, err := s.CreateKnowledgeBase(ctx, "ws", "", kb.ID, kb.Name)
		must(err)
	}
	article := func(kb, title, body string) {
		_, err := s.PutArticleAs(ctx, kb, "", title, body, notes.AuthorPerson)
		must(err)
	}
	article("kb-ops", "Deployment runbook", "Build, tag and ship. Watch the dashboards for ten minutes.")
	article("kb-ops", "Incident rollback", "Revert the release and page the on-call engineer.")
	article("kb-hr", "Onboarding runbook", "Laptop, accounts, a buddy for the first week.")
}

// TestSearchSameOnBothEngines runs the same searches against both engines:
// the rule (words, every word before any) is shared, each engine matches.
func TestSearchSameOnBothEngines(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name    string
		kb      string // search_knowledge_base when set, else memory_search in ws
		query   string
		want    []string // titles of the hits
		ordered bool     // the order matters, not just the set
		snippet string   // a hit's snippet holds this
	}{
		{name: "a word matches as a prefix, title first", query: "deploy", want: []string{"Deployment runbook", "Launch plan"}, ordered: true},
		{name: "every word before any", query: "rollback launch", want: []string{"Launch plan"}, snippet: "**launch**"},
		{name: "any word when none has all", query: "zebra rollback", want: []string{"Incident rollback", "Launch plan"}},
		{name: "case and diacritics do not matter", query: "CAFE resume", want: []string{"Offsite"}},
		{name: "accented query finds plain words", query: "dépl", want: []string{"Deployment runbook", "Launch plan"}},
		{name: "sheet cells that are text", query: "forecast headcount", want: []string{"Budget"}},
		{name: "another workspace stays out", query: "secret", want: nil},
		{name: "query punctuation is not syntax", query: `"unbalanced AND (OR* NEAR`, want: []string{"Deployment runbook", "Incident rollback"}},
		{name: "nothing to search", query: "  !! ", want: nil},
		{name: "one knowledge base only", kb: "kb-ops", query: "runbook", want: []string{"Deployment runbook"}},
		{name: "knowledge base, any word", kb: "kb-hr", query: "buddy zebra", want: []string{"Onboarding runbook"}, snippet: "**buddy**"},
	}
	for name, s := range engines(t) {
		seedSearch(t, s)
		t.Run(name, func(t *testing.T) {
			for _, c := range cases {
				var titles, snippets []string
				if c.kb != "" {
					hits, err := s.SearchArticles(ctx, c.kb, c.query, 10)
					if err != nil {
						t.Fatalf("%s: %v", c.name, err)
					}
					for _, h := range hits {
						titles, snippets = append(titles, h.Title), append(snippets, h.Snippet)
					}
				} else {
					hits, err := s.MemorySearch(ctx, "ws", c.query, 10)
					if err != nil {
						t.Fatalf("%s: %v", c.name, err)
					}
					for _, h := range hits {
						titles, snippets = append(titles, h.Title), append(snippets, h.Snippet)
						if h.UpdatedAt.IsZero() {
							t.Errorf("%s: hit %s has no updated_at", c.name, h.ID)
						}
					}
				}
				got := slices.Clone(titles)
				want := slices.Clone(c.want)
				if !c.ordered {
					slices.Sort(got)
					slices.Sort(want)
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s: %q found %q, want %q", c.name, c.query, titles, c.want)
				}
				if c.snippet != "" && !slices.ContainsFunc(snippets, func(s string) bool { return strings.Contains(strings.ToLower(s), c.snippet) }) {
					t.Errorf("%s: no snippet marks %s: %q", c.name, c.snippet, snippets)
				}
			}
		})
	}
}

// An edit is searchable at once and the words it removed are gone, on
// both engines (the server writes the document with the edit, the desktop
// refreshes its index on the next search).
func TestSearchFollowsEdits(t *testing.T) {
	ctx := context.Background()
	for name, s := range engines(t) {
		t.Run(name, func(t *testing.T) {
			seedSearch(t, s)
			n, err := s.GetNote(ctx, "n-plan")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.SaveTabAsPerson(ctx, "n-plan", n.Tabs[0].ID, n.Version, "Ship on Thursday."); err != nil {
				t.Fatal(err)
			}
			for q, want := range map[string]int{"thursday": 1, "announce": 0} {
				hits, err := s.MemorySearch(ctx, "ws", q, 10)
				if err != nil {
					t.Fatal(err)
				}
				if len(hits) != want {
					t.Errorf("%q after the edit: %d hits (%v), want %d", q, len(hits), hits, want)
				}
			}
		})
	}
}

// Writers index concurrently: folding accented text from many goroutines
// at once gives every one the same answer (go test -race checks more).
func TestFoldingIsSafeConcurrently(t *testing.T) {
	pg, _ := openDB(t)
	s := notes.OpenBackend(pg, pg, notes.Options{})
	ctx := context.Background()
	if _, err := s.CreateWorkspace(ctx, "ws", "ws"); err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 16)
	for i := range 16 {
		go func() {
			_, err := s.CreateNote(ctx, notes.NewNote{Workspace: "ws", Title: "Réunion d'équipe", Text: strings.Repeat("Crème brûlée à la carte. ", 50+i)})
			errs <- err
		}()
	}
	for range 16 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	hits, err := s.MemorySearch(ctx, "ws", "reunion creme brulee", 50)
	if err != nil || len(hits) != 16 {
		t.Fatalf("found %d of 16 Notes, %v", len(hits), err)
	}
}
