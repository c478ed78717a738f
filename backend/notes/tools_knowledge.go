package notes

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/osfoundry/desktop/backend/tools"
)

var kbIDField = idField("knowledge_base_id", "The knowledge base's ID from list_project_resources.")

// kbFor refuses a knowledge base outside the call's workspace as not found.
func (s *Knowledge) kbFor(ctx context.Context, ws, id string) *tools.Result {
	if kb, err := s.KnowledgeBase(ctx, id); err != nil || kb.Workspace != ws {
		return notFound(fmt.Sprintf("knowledge base %s not found; use list_project_resources to find knowledge base IDs", id))
	}
	return nil
}

type kbSearchArgs struct {
	KB    string `json:"knowledge_base_id"`
	Query string `json:"query"`
	Limit int    `json:"limit"`
}

// KBHit is one search_knowledge_base result.
type KBHit struct {
	ArticleID string    `json:"article_id"`
	Title     string    `json:"title"`
	Snippet   string    `json:"snippet"`
	UpdatedAt time.Time `json:"updated_at" ts_type:"string"`
}

func (s *Knowledge) searchKnowledgeBaseTool() tools.Tool {
	sp := spec{kbIDField,
		{name: "query", required: true, schema: map[string]any{"type": "string", "maxLength": 500, "description": "Words to search for."}},
		{name: "limit", schema: map[string]any{"type": "integer", "minimum": 1, "maximum": MaxListLimit, "description": "At most this many articles (default 10)."}},
	}
	return tools.Tool{
		Meta: readMeta(ToolSearchKnowledgeBase, "Full-text search of one knowledge base. Returns each matching article's ID, title, "+
			"a snippet and when it was last updated (check that before trusting an old article); read one with read_knowledge_article.", sp),
		Handler: handler(sp, func(ctx context.Context, c tools.Call, a *kbSearchArgs) (tools.Result, error) {
			if r := s.kbFor(ctx, c.Workspace, a.KB); r != nil {
				return *r, nil
			}
			if a.Limit == 0 {
				a.Limit = defaultSearchHits
			}
			hits, err := s.find(ctx, SearchScope{KnowledgeBase: a.KB}, a.Query, a.Limit)
			if err != nil {
				return tools.Result{}, err
			}
			out := kbHits(hits)
			return tools.JSONResult(map[string]any{"knowledge_base_id": a.KB, "articles": out}), nil
		}),
	}
}

type articleArgs struct {
	KB      string `json:"knowledge_base_id"`
	Article string `json:"article_id"`
}

func (s *Knowledge) readKnowledgeArticleTool() tools.Tool {
	sp := spec{kbIDField, idField("article_id", "The article's ID from search_knowledge_base.")}
	return tools.Tool{
		Meta: readMeta(ToolReadKnowledgeArticle, "Read one knowledge base article in full, with its version and last update.", sp),
		Handler: handler(sp, func(ctx context.Context, c tools.Call, a *articleArgs) (tools.Result, error) {
			if r := s.kbFor(ctx, c.Workspace, a.KB); r != nil {
				return *r, nil
			}
			art, err := s.GetArticle(ctx, a.KB, a.Article)
			if errors.Is(err, ErrNotFound) {
				return tools.ErrorResult(fmt.Sprintf("article %s is not in knowledge base %s; use search_knowledge_base", a.Article, a.KB)), nil
			}
			if err != nil {
				return tools.Result{}, err
			}
			return tools.JSONResult(art.Article), nil
		}),
	}
}
