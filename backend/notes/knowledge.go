package notes

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/tools"
)

// The person's side of knowledge bases: list, read, create, save (under
// the same version rule as a Note's editor), rename, delete and search.
// Every article remembers who changed it last: AuthorPerson for the
// window, AuthorCommandLine for `osfoundry knowledge`, or a connection.

// KnowledgeComponent is the article-author migration's name in
// schema_migrations (kept apart from the notes schema's numbering).
const KnowledgeComponent = "knowledge"

var knowledgeMigrations = []store.Migration{
	{Version: 1, SQL: `ALTER TABLE knowledge_articles ADD COLUMN updated_by TEXT NOT NULL DEFAULT '';`},
}

// Who last changed an article when it was not a connection.
const (
	AuthorPerson      = "you"
	AuthorCommandLine = "command line"
)

// ArticleDoc is an article as the Knowledge bases screen shows it.
type ArticleDoc struct {
	Article
	UpdatedBy string `json:"updated_by"`
}

// ArticleSave is the outcome of a conditional save by the person: on a
// conflict nothing is written and Current is the article as stored now.
type ArticleSave struct {
	Saved   bool        `json:"saved"`
	Version int64       `json:"version"`
	Current *ArticleDoc `json:"current,omitempty"`
	// Article is the article as this save left it, set when saved (not
	// re-read: a write that landed since would answer for this one).
	Article *ArticleDoc `json:"article,omitempty"`
}

func migrateKnowledge(db *sql.DB) error {
	if err := store.Migrate(context.Background(), db, KnowledgeComponent, knowledgeMigrations); err != nil {
		return fmt.Errorf("opening knowledge store: %w", lockErr(err))
	}
	return nil
}

func checkBody(body string) error {
	if len(body) > MaxTextBytes {
		return fmt.Errorf("%w: the article is %d bytes; an article holds at most %d bytes (1 MiB) — split it into several articles", ErrInvalid, len(body), MaxTextBytes)
	}
	return nil
}

// Knowledge is the knowledge bases and their articles: the Knowledge bases
// screen, `osfoundry knowledge` and the search_knowledge_base /
// read_knowledge_article tools all go through it.
type Knowledge struct{ *core }

// CreateKnowledgeBase creates a knowledge base; id "" picks a fresh one.
func (k *Knowledge) CreateKnowledgeBase(ctx context.Context, workspace, project, id, name string) (KnowledgeBase, error) {
	if err := checkTitle("knowledge base name", name); err != nil {
		return KnowledgeBase{}, err
	}
	if err := k.checkPlacement(ctx, k.b.Pool().Places(), workspace, project); err != nil {
		return KnowledgeBase{}, fmt.Errorf("creating knowledge base %q: %w", name, err)
	}
	kb := KnowledgeBase{ID: orNewID(id, "kb"), Workspace: workspace, Project: project, Name: name}
	if err := k.b.Pool().Knowledge().InsertBase(ctx, kb, k.now()); err != nil {
		return KnowledgeBase{}, fmt.Errorf("creating knowledge base %q: %w", name, err)
	}
	return kb, nil
}

// MoveKnowledgeBase puts a knowledge base in another project.
func (k *Knowledge) MoveKnowledgeBase(ctx context.Context, kbID, projectID string) error {
	return k.move(ctx, ResourceKnowledgeBase, kbID, projectID)
}

// ListKnowledgeBases lists a workspace's knowledge bases by name.
func (k *Knowledge) ListKnowledgeBases(ctx context.Context, workspace string) ([]KnowledgeBase, error) {
	return k.b.Pool().Knowledge().Bases(ctx, workspace)
}

// KnowledgeBase returns one knowledge base.
func (k *Knowledge) KnowledgeBase(ctx context.Context, id string) (KnowledgeBase, error) {
	return k.b.Pool().Knowledge().Base(ctx, id)
}

// ListArticles lists a knowledge base's articles (without bodies), most
// recently changed first.
func (k *Knowledge) ListArticles(ctx context.Context, kbID string) ([]ArticleDoc, error) {
	if _, err := k.KnowledgeBase(ctx, kbID); err != nil {
		return nil, err
	}
	return k.b.Pool().Knowledge().Articles(ctx, kbID)
}

// GetArticle returns one article with its body and author.
func (k *Knowledge) GetArticle(ctx context.Context, kbID, id string) (ArticleDoc, error) {
	return k.b.Pool().Knowledge().Article(ctx, kbID, id)
}

// PutArticle creates an article (id "" picks a fresh one) or, when id
// exists in the knowledge base, replaces its title and body and bumps its
// version. It returns the article as this write left it: the write and its
// read back are one transaction, so a write landing after it is not taken
// for this one's.
func (k *Knowledge) PutArticle(ctx context.Context, kbID, id, title, body string) (ArticleDoc, error) {
	if err := checkTitle("article title", title); err != nil {
		return ArticleDoc{}, err
	}
	if len(body) > MaxTextBytes {
		return ArticleDoc{}, fmt.Errorf("%w: article body is larger than %d bytes", ErrInvalid, MaxTextBytes)
	}
	id = orNewID(id, "art")
	var a ArticleDoc
	err := k.b.Write(ctx, func(tx Tx) error {
		rows := tx.Knowledge()
		if _, err := rows.Base(ctx, kbID); err != nil {
			return err
		}
		if err := rows.PutArticle(ctx, kbID, id, title, body, k.now()); err != nil {
			return err
		}
		var err error
		a, err = rows.Article(ctx, kbID, id)
		return err
	})
	if err != nil {
		return ArticleDoc{}, fmt.Errorf("saving article %q: %w", title, lockErr(err))
	}
	k.notifyItem("article", id)
	return a, nil
}

// PutArticleAs is PutArticle that records who wrote it (the owner's
// unconditional write: a new article, or a replacement of id).
func (k *Knowledge) PutArticleAs(ctx context.Context, kbID, id, title, body, author string) (ArticleDoc, error) {
	if err := checkBody(body); err != nil {
		return ArticleDoc{}, err
	}
	if id != "" {
		if _, err := k.GetArticle(ctx, kbID, id); err != nil {
			return ArticleDoc{}, err
		}
	}
	a, err := k.PutArticle(ctx, kbID, id, title, body)
	if err != nil {
		return ArticleDoc{}, err
	}
	if err := k.b.Pool().Knowledge().SetAuthor(ctx, a.ID, author); err != nil {
		return ArticleDoc{}, fmt.Errorf("saving article %q: %w", title, err)
	}
	return k.GetArticle(ctx, kbID, a.ID)
}

// SaveArticleAsPerson replaces an article's title and body if it is still
// at expectedVersion; otherwise nothing is written and the result carries
// the article as it is now (the editor keeps a draft, offers compare).
func (k *Knowledge) SaveArticleAsPerson(ctx context.Context, kbID, id string, expectedVersion int64, title, body string) (ArticleSave, error) {
	if err := checkTitle("article title", title); err != nil {
		return ArticleSave{}, err
	}
	if err := checkBody(body); err != nil {
		return ArticleSave{}, err
	}
	rows := k.b.Pool().Knowledge()
	now := k.now()
	a := ArticleDoc{Article: Article{ID: id, KnowledgeBase: kbID, Title: title, Body: body, Version: expectedVersion + 1,
		UpdatedAt: parseTime(formatTime(now))}, UpdatedBy: AuthorPerson}
	saved, err := rows.UpdateArticleIfVersion(ctx, a, expectedVersion, now)
	if err != nil {
		return ArticleSave{}, fmt.Errorf("saving article %q: %w", title, err)
	}
	if saved {
		k.notifyItem("article", id)
		return ArticleSave{Saved: true, Version: a.Version, Article: &a}, nil
	}
	cur, err := rows.Article(ctx, kbID, id)
	if err != nil {
		return ArticleSave{}, err
	}
	return ArticleSave{Version: cur.Version, Current: &cur}, nil
}

// DeleteArticle removes an article.
func (k *Knowledge) DeleteArticle(ctx context.Context, kbID, id string) error {
	found, err := k.b.Pool().Knowledge().DeleteArticle(ctx, kbID, id)
	if err != nil {
		return fmt.Errorf("deleting article %s: %w", id, err)
	}
	if !found {
		return fmt.Errorf("deleting article %s of knowledge base %s: %w", id, kbID, ErrNotFound)
	}
	return nil
}

// SearchArticles runs the same full-text search search_knowledge_base runs.
func (k *Knowledge) SearchArticles(ctx context.Context, kbID, query string, limit int) ([]KBHit, error) {
	if _, err := k.KnowledgeBase(ctx, kbID); err != nil {
		return nil, err
	}
	if limit <= 0 || limit > MaxListLimit {
		limit = defaultSearchHits
	}
	hits, err := k.find(ctx, SearchScope{KnowledgeBase: kbID}, query, limit)
	if err != nil {
		return nil, err
	}
	return kbHits(hits), nil
}

func kbHits(hits []tools.MemoryHit) []KBHit {
	out := make([]KBHit, len(hits))
	for i, h := range hits {
		out[i] = KBHit{ArticleID: h.ID, Title: h.Title, Snippet: h.Snippet, UpdatedAt: h.UpdatedAt}
	}
	return out
}

// KnowledgeStamp changes whenever an article of kbID is added, changed or
// deleted, by any process: the screen compares it to follow live.
func (k *Knowledge) KnowledgeStamp(ctx context.Context, kbID string) (string, error) {
	n, sum, newest, err := k.b.Pool().Knowledge().ArticleStats(ctx, kbID)
	if err != nil {
		return "", err
	}
	last := ""
	if !newest.IsZero() {
		last = formatTime(newest)
	}
	return fmt.Sprintf("%d/%d/%s", n, sum, last), nil
}
