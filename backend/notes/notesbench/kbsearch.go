package notesbench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/store"
)

// KBSearchResult is the latency of search_knowledge_base calls over one
// knowledge base, each looking for one article by a word only it holds.
type KBSearchResult struct {
	Articles, Calls, Found int
	P50, P95               time.Duration
}

var kbWords = strings.Fields(`refund shipping invoice account password billing order delivery return warranty
	discount coupon subscription cancel upgrade plan team member export import report dashboard
	integration webhook token security privacy storage backup restore limit quota support contact`)

// KBSearch fills a fresh knowledge base with articles (about 120 words
// each from a shared vocabulary plus one word unique to the article), then
// times calls sequential search_knowledge_base calls through the tool
// handler an agent's call runs, each for a random article's unique word
// with a common word beside it.
func KBSearch(ctx context.Context, dir string, articles, calls int) (KBSearchResult, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return KBSearchResult{}, err
	}
	e, err := openEditor(filepath.Join(dir, store.FileName), notes.Options{})
	if err != nil {
		return KBSearchResult{}, err
	}
	defer e.close()
	if _, err := e.s.CreateWorkspace(ctx, workspace, "Bench"); err != nil {
		return KBSearchResult{}, err
	}
	kb, err := e.s.CreateKnowledgeBase(ctx, workspace, "", "kb-bench", "Support answers")
	if err != nil {
		return KBSearchResult{}, err
	}
	rng := rand.New(rand.NewPCG(1, uint64(articles)))
	tx, err := e.db.BeginTx(ctx, nil)
	if err != nil {
		return KBSearchResult{}, fmt.Errorf("filling the knowledge base: %w", err)
	}
	defer tx.Rollback()
	now := time.Now().UTC().Format(time.RFC3339Nano)
	for i := range articles {
		var b strings.Builder
		for w := range 120 {
			if w == 60 {
				fmt.Fprintf(&b, "uniq%06d ", i)
			}
			b.WriteString(kbWords[rng.IntN(len(kbWords))])
			b.WriteByte(' ')
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO knowledge_articles (id, knowledge_base_id, title, body, version, created_at, updated_at)
			VALUES (?, ?, ?, ?, 1, ?, ?)`, fmt.Sprintf("art-%06d", i), kb.ID, fmt.Sprintf("Article %d about %s", i, kbWords[i%len(kbWords)]), b.String(), now, now); err != nil {
			return KBSearchResult{}, fmt.Errorf("filling the knowledge base: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return KBSearchResult{}, fmt.Errorf("filling the knowledge base: %w", err)
	}
	// The first search indexes every article (lazily, as in the app); it
	// is not one of the timed calls.
	if err := e.s.Reindex(ctx); err != nil {
		return KBSearchResult{}, err
	}
	r := KBSearchResult{Articles: articles, Calls: calls}
	took := make([]time.Duration, 0, calls)
	for range calls {
		target := rng.IntN(articles)
		var out struct {
			Articles []notes.KBHit `json:"articles"`
		}
		t0 := time.Now()
		res, err := e.call(ctx, notes.ToolSearchKnowledgeBase, map[string]any{
			"knowledge_base_id": kb.ID, "query": fmt.Sprintf("uniq%06d %s", target, kbWords[rng.IntN(len(kbWords))]), "limit": 10,
		}, &out)
		took = append(took, time.Since(t0))
		if err != nil {
			return r, err
		}
		if res.IsError {
			return r, fmt.Errorf("search_knowledge_base: %s", res.Text)
		}
		if len(out.Articles) > 0 && out.Articles[0].ArticleID == fmt.Sprintf("art-%06d", target) {
			r.Found++
		}
	}
	slices.Sort(took)
	r.P50, r.P95 = took[len(took)/2], took[min(len(took)-1, len(took)*95/100)]
	return r, nil
}

func kbSearchTable(ctx context.Context, o SuiteOptions) (Table, error) {
	const articles, calls = 10000, 1000
	r, err := KBSearch(ctx, filepath.Join(o.Dir, "kbsearch"), articles, calls)
	if err != nil {
		return Table{}, err
	}
	return Table{
		Title:  fmt.Sprintf("search_knowledge_base over %d articles: %d sequential tool calls", articles, calls),
		Header: []string{"check", "p50", "p95", "found", "target p95"},
		Rows:   [][]string{{"search_knowledge_base", one(r.P50), one(r.P95), fmt.Sprintf("%d/%d", r.Found, r.Calls), "≤ 5 ms"}},
		Note:   "Each call looks for one article by a word only it holds, beside a common word; times cover the whole tool call (arguments, FTS5 match and bm25 ranking, JSON result), pure-Go SQLite.",
	}, nil
}

func one(d time.Duration) string { return strings.Split(span([]time.Duration{d}), "–")[0] }
