package notes

import (
	"context"
	"time"
)

// KnowledgeBinding is the Knowledge bases screen's bound service:
// ctx-free methods returning concrete types, over the Places and Knowledge
// services.
type KnowledgeBinding struct {
	places  *Places
	kb      *Knowledge
	timeout time.Duration
}

// NewKnowledgeBinding returns the Knowledge bases screen's service over s.
func NewKnowledgeBinding(s *Store) *KnowledgeBinding {
	return &KnowledgeBinding{places: s.Places, kb: s.Knowledge, timeout: 30 * time.Second}
}

func (b *KnowledgeBinding) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), b.timeout)
}

// KnowledgeOverview is everything the knowledge base list shows.
type KnowledgeOverview struct {
	Workspaces     []Workspace     `json:"workspaces"`
	Projects       []Project       `json:"projects"`
	KnowledgeBases []KnowledgeBase `json:"knowledge_bases"`
}

// Overview lists every workspace with its projects and knowledge bases.
func (b *KnowledgeBinding) Overview() (KnowledgeOverview, error) {
	ctx, cancel := b.ctx()
	defer cancel()
	ws, err := b.places.ListWorkspaces(ctx)
	if err != nil {
		return KnowledgeOverview{}, err
	}
	o := KnowledgeOverview{Workspaces: ws, Projects: []Project{}, KnowledgeBases: []KnowledgeBase{}}
	for _, w := range ws {
		ps, err := b.places.ListProjects(ctx, w.ID)
		if err != nil {
			return KnowledgeOverview{}, err
		}
		kbs, err := b.kb.ListKnowledgeBases(ctx, w.ID)
		if err != nil {
			return KnowledgeOverview{}, err
		}
		o.Projects = append(o.Projects, ps...)
		o.KnowledgeBases = append(o.KnowledgeBases, kbs...)
	}
	return o, nil
}

// CreateKnowledgeBase creates a knowledge base; project "" leaves it
// outside any project.
func (b *KnowledgeBinding) CreateKnowledgeBase(workspace, project, name string) (KnowledgeBase, error) {
	ctx, cancel := b.ctx()
	defer cancel()
	return b.kb.CreateKnowledgeBase(ctx, workspace, project, "", name)
}

// Articles lists a knowledge base's articles without their bodies.
func (b *KnowledgeBinding) Articles(kbID string) ([]ArticleDoc, error) {
	ctx, cancel := b.ctx()
	defer cancel()
	return b.kb.ListArticles(ctx, kbID)
}

// GetArticle returns one article in full.
func (b *KnowledgeBinding) GetArticle(kbID, articleID string) (ArticleDoc, error) {
	ctx, cancel := b.ctx()
	defer cancel()
	return b.kb.GetArticle(ctx, kbID, articleID)
}

// CreateArticle adds an article written by the person.
func (b *KnowledgeBinding) CreateArticle(kbID, title, body string) (ArticleDoc, error) {
	ctx, cancel := b.ctx()
	defer cancel()
	return b.kb.PutArticleAs(ctx, kbID, "", title, body, AuthorPerson)
}

// SaveArticle saves a new title and body if the article is still at
// expectedVersion (a rename is a save with a new title).
func (b *KnowledgeBinding) SaveArticle(kbID, articleID string, expectedVersion int64, title, body string) (ArticleSave, error) {
	ctx, cancel := b.ctx()
	defer cancel()
	return b.kb.SaveArticleAsPerson(ctx, kbID, articleID, expectedVersion, title, body)
}

// DeleteArticle removes an article.
func (b *KnowledgeBinding) DeleteArticle(kbID, articleID string) error {
	ctx, cancel := b.ctx()
	defer cancel()
	return b.kb.DeleteArticle(ctx, kbID, articleID)
}

// DeleteKnowledgeBase removes a knowledge base and its articles (of a
// synced project: on the team server too, unless a teammate changed it
// meanwhile — then it comes back with their changes).
func (b *KnowledgeBinding) DeleteKnowledgeBase(kbID string) error {
	ctx, cancel := b.ctx()
	defer cancel()
	return b.kb.DeleteKnowledgeBase(ctx, kbID)
}

// Search runs search_knowledge_base's full-text search.
func (b *KnowledgeBinding) Search(kbID, query string) ([]KBHit, error) {
	ctx, cancel := b.ctx()
	defer cancel()
	return b.kb.SearchArticles(ctx, kbID, query, MaxListLimit)
}

// Stamp changes whenever any process adds, changes or deletes an article
// of kbID; the open screen compares it once a second to follow live.
func (b *KnowledgeBinding) Stamp(kbID string) (string, error) {
	ctx, cancel := b.ctx()
	defer cancel()
	return b.kb.KnowledgeStamp(ctx, kbID)
}
