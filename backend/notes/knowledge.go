package notes

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/osfoundry/desktop/backend/store"
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

// ListKnowledgeBases lists a workspace's knowledge bases by name.
func (s *Store) ListKnowledgeBases(ctx context.Context, workspace string) ([]KnowledgeBase, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, workspace_id, COALESCE(project_id, ''), name FROM knowledge_bases
		WHERE workspace_id = ? ORDER BY name, id`, workspace)
	if err != nil {
		return nil, fmt.Errorf("listing knowledge bases: %w", err)
	}
	defer rows.Close()
	out := []KnowledgeBase{}
	for rows.Next() {
		var kb KnowledgeBase
		if err := rows.Scan(&kb.ID, &kb.Workspace, &kb.Project, &kb.Name); err != nil {
			return nil, fmt.Errorf("listing knowledge bases: %w", err)
		}
		out = append(out, kb)
	}
	return out, rows.Err()
}

// KnowledgeBase returns one knowledge base.
func (s *Store) KnowledgeBase(ctx context.Context, id string) (KnowledgeBase, error) {
	var kb KnowledgeBase
	err := s.db.QueryRowContext(ctx, `SELECT id, workspace_id, COALESCE(project_id, ''), name FROM knowledge_bases WHERE id = ?`, id).
		Scan(&kb.ID, &kb.Workspace, &kb.Project, &kb.Name)
	if errors.Is(err, sql.ErrNoRows) {
		return KnowledgeBase{}, fmt.Errorf("knowledge base %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return KnowledgeBase{}, fmt.Errorf("reading knowledge base %s: %w", id, err)
	}
	return kb, nil
}

const articleDocCols = `id, knowledge_base_id, title, body, version, updated_at, updated_by`

func scanArticleDoc(sc interface{ Scan(...any) error }, withBody bool) (ArticleDoc, error) {
	var a ArticleDoc
	var upd, body string
	if err := sc.Scan(&a.ID, &a.KnowledgeBase, &a.Title, &body, &a.Version, &upd, &a.UpdatedBy); err != nil {
		return ArticleDoc{}, err
	}
	if withBody {
		a.Body = body
	}
	a.UpdatedAt = parseTime(upd)
	return a, nil
}

// ListArticles lists a knowledge base's articles (without bodies), most
// recently changed first.
func (s *Store) ListArticles(ctx context.Context, kbID string) ([]ArticleDoc, error) {
	if _, err := s.KnowledgeBase(ctx, kbID); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, knowledge_base_id, title, '', version, updated_at, updated_by
		FROM knowledge_articles WHERE knowledge_base_id = ? ORDER BY updated_at DESC, id`, kbID)
	if err != nil {
		return nil, fmt.Errorf("listing articles: %w", err)
	}
	defer rows.Close()
	out := []ArticleDoc{}
	for rows.Next() {
		a, err := scanArticleDoc(rows, false)
		if err != nil {
			return nil, fmt.Errorf("listing articles: %w", err)
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// GetArticle returns one article with its body and author.
func (s *Store) GetArticle(ctx context.Context, kbID, id string) (ArticleDoc, error) {
	a, err := scanArticleDoc(s.db.QueryRowContext(ctx, `SELECT `+articleDocCols+` FROM knowledge_articles
		WHERE id = ? AND knowledge_base_id = ?`, id, kbID), true)
	if errors.Is(err, sql.ErrNoRows) {
		return ArticleDoc{}, fmt.Errorf("article %s of knowledge base %s: %w", id, kbID, ErrNotFound)
	}
	if err != nil {
		return ArticleDoc{}, fmt.Errorf("reading article %s: %w", id, err)
	}
	return a, nil
}

// PutArticleAs is PutArticle that records who wrote it (the owner's
// unconditional write: a new article, or a replacement of id).
func (s *Store) PutArticleAs(ctx context.Context, kbID, id, title, body, author string) (ArticleDoc, error) {
	if err := checkBody(body); err != nil {
		return ArticleDoc{}, err
	}
	if id != "" {
		if _, err := s.GetArticle(ctx, kbID, id); err != nil {
			return ArticleDoc{}, err
		}
	}
	a, err := s.PutArticle(ctx, kbID, id, title, body)
	if err != nil {
		return ArticleDoc{}, err
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE knowledge_articles SET updated_by = ? WHERE id = ?`, author, a.ID); err != nil {
		return ArticleDoc{}, fmt.Errorf("saving article %q: %w", title, lockErr(err))
	}
	return s.GetArticle(ctx, kbID, a.ID)
}

// SaveArticleAsPerson replaces an article's title and body if it is still
// at expectedVersion; otherwise nothing is written and the result carries
// the article as it is now (the editor keeps a draft, offers compare).
func (s *Store) SaveArticleAsPerson(ctx context.Context, kbID, id string, expectedVersion int64, title, body string) (ArticleSave, error) {
	if err := checkTitle("article title", title); err != nil {
		return ArticleSave{}, err
	}
	if err := checkBody(body); err != nil {
		return ArticleSave{}, err
	}
	res, err := s.db.ExecContext(ctx, `UPDATE knowledge_articles SET title = ?, body = ?, version = version + 1, updated_at = ?, updated_by = ?
		WHERE id = ? AND knowledge_base_id = ? AND version = ?`, title, body, formatTime(s.now()), AuthorPerson, id, kbID, expectedVersion)
	if err != nil {
		return ArticleSave{}, fmt.Errorf("saving article %q: %w", title, lockErr(err))
	}
	n, _ := res.RowsAffected()
	cur, err := s.GetArticle(ctx, kbID, id)
	if err != nil {
		return ArticleSave{}, err
	}
	if n == 0 {
		return ArticleSave{Version: cur.Version, Current: &cur}, nil
	}
	return ArticleSave{Saved: true, Version: cur.Version}, nil
}

// DeleteArticle removes an article.
func (s *Store) DeleteArticle(ctx context.Context, kbID, id string) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM knowledge_articles WHERE id = ? AND knowledge_base_id = ?`, id, kbID)
	if err != nil {
		return fmt.Errorf("deleting article %s: %w", id, lockErr(err))
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("deleting article %s of knowledge base %s: %w", id, kbID, ErrNotFound)
	}
	return nil
}

// SearchArticles runs the same full-text search search_knowledge_base runs.
func (s *Store) SearchArticles(ctx context.Context, kbID, query string, limit int) ([]KBHit, error) {
	if _, err := s.KnowledgeBase(ctx, kbID); err != nil {
		return nil, err
	}
	if err := s.Reindex(ctx); err != nil {
		return nil, err
	}
	if limit <= 0 || limit > MaxListLimit {
		limit = defaultSearchHits
	}
	hits, err := s.search(ctx, `kind = 'knowledge_article' AND container = ?`, []any{kbID}, query, limit)
	if err != nil {
		return nil, err
	}
	out := make([]KBHit, len(hits))
	for i, h := range hits {
		out[i] = KBHit{ArticleID: h.ID, Title: h.Title, Snippet: h.Snippet, UpdatedAt: s.updatedAt(ctx, h)}
	}
	return out, nil
}

// KnowledgeStamp changes whenever an article of kbID is added, changed or
// deleted, by any process: the screen compares it to follow live.
func (s *Store) KnowledgeStamp(ctx context.Context, kbID string) (string, error) {
	var n, sum int64
	var newest string
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(version), 0), COALESCE(MAX(updated_at), '')
		FROM knowledge_articles WHERE knowledge_base_id = ?`, kbID).Scan(&n, &sum, &newest); err != nil {
		return "", fmt.Errorf("reading knowledge base %s: %w", kbID, err)
	}
	return fmt.Sprintf("%d/%d/%s", n, sum, newest), nil
}
