package pgnotes

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/osfoundry/desktop/backend/notes"
)

// pgKnowledge keeps knowledge bases and articles; an article's full-text
// document is written by the same statement as its title and body.
type pgKnowledge pgTx

var _ notes.KnowledgeRows = pgKnowledge{}

const kbCols = `id, workspace_id, COALESCE(project_id, ''), name`

func scanKB(sc pgx.Row) (notes.KnowledgeBase, error) {
	var kb notes.KnowledgeBase
	return kb, sc.Scan(&kb.ID, &kb.Workspace, &kb.Project, &kb.Name)
}

func (k pgKnowledge) InsertBase(ctx context.Context, kb notes.KnowledgeBase, now time.Time) error {
	_, err := pgTx(k).exec(ctx, "creating knowledge base "+kb.ID, `INSERT INTO knowledge_bases (id, workspace_id, project_id, name, created_at)
		VALUES ($1, $2, $3, $4, $5)`, kb.ID, kb.Workspace, nullable(kb.Project), kb.Name, stored(now))
	return err
}

func (k pgKnowledge) Base(ctx context.Context, id string) (notes.KnowledgeBase, error) {
	var kb notes.KnowledgeBase
	err := pgTx(k).row(ctx, "knowledge base "+id, []any{&kb.ID, &kb.Workspace, &kb.Project, &kb.Name},
		`SELECT `+kbCols+` FROM knowledge_bases WHERE id = $1`, id)
	return kb, err
}

func (k pgKnowledge) Bases(ctx context.Context, workspace string) ([]notes.KnowledgeBase, error) {
	return collect(ctx, pgTx(k), "knowledge bases", scanKB,
		`SELECT `+kbCols+` FROM knowledge_bases WHERE workspace_id = $1 ORDER BY name, id`, workspace)
}

func (k pgKnowledge) PutArticle(ctx context.Context, kb, id, title, body string, now time.Time) error {
	t, b := docText(title, body)
	_, err := pgTx(k).exec(ctx, "saving article "+id, `INSERT INTO knowledge_articles (id, knowledge_base_id, title, body, version, created_at, updated_at, doc)
		VALUES ($1, $2, $3, $4, 1, $5, $5, `+docExpr(6, 7)+`)
		ON CONFLICT (id) DO UPDATE SET title = excluded.title, body = excluded.body, doc = excluded.doc,
			version = knowledge_articles.version + 1, updated_at = excluded.updated_at
		WHERE knowledge_articles.knowledge_base_id = excluded.knowledge_base_id`, id, kb, title, body, stored(now), t, b)
	return err
}

const articleDocCols = `id, knowledge_base_id, title, body, version, updated_at, updated_by`

func scanArticleDoc(sc pgx.Row) (notes.ArticleDoc, error) {
	var a notes.ArticleDoc
	var upd string
	if err := sc.Scan(&a.ID, &a.KnowledgeBase, &a.Title, &a.Body, &a.Version, &upd, &a.UpdatedBy); err != nil {
		return notes.ArticleDoc{}, err
	}
	a.UpdatedAt = notes.ParseStoredTime(upd)
	return a, nil
}

func (k pgKnowledge) Article(ctx context.Context, kb, id string) (notes.ArticleDoc, error) {
	var a notes.ArticleDoc
	var upd string
	err := pgTx(k).row(ctx, "article "+id+" of knowledge base "+kb,
		[]any{&a.ID, &a.KnowledgeBase, &a.Title, &a.Body, &a.Version, &upd, &a.UpdatedBy},
		`SELECT `+articleDocCols+` FROM knowledge_articles WHERE id = $1 AND knowledge_base_id = $2`+pgTx(k).locked(), id, kb)
	a.UpdatedAt = notes.ParseStoredTime(upd)
	return a, err
}

func (k pgKnowledge) Articles(ctx context.Context, kb string) ([]notes.ArticleDoc, error) {
	return collect(ctx, pgTx(k), "articles", scanArticleDoc, `SELECT id, knowledge_base_id, title, '', version, updated_at, updated_by
		FROM knowledge_articles WHERE knowledge_base_id = $1 ORDER BY updated_at DESC, id`, kb)
}

func (k pgKnowledge) SetAuthor(ctx context.Context, id, author string) error {
	if err := storeText("saving the author of article "+id, author); err != nil {
		return err
	}
	_, err := pgTx(k).exec(ctx, "saving the author of article "+id, `UPDATE knowledge_articles SET updated_by = $1 WHERE id = $2`, author, id)
	return err
}

func (k pgKnowledge) UpdateArticleIfVersion(ctx context.Context, a notes.ArticleDoc, expected int64, now time.Time) (bool, error) {
	if err := storeText("saving article "+a.ID, a.Title, a.Body, a.UpdatedBy); err != nil {
		return false, err
	}
	t, b := docText(a.Title, a.Body)
	return pgTx(k).ifVersion(ctx, "saving article "+a.ID, `UPDATE knowledge_articles
		SET title = $1, body = $2, version = $3, updated_at = $4, updated_by = $5, doc = `+docExpr(9, 10)+`
		WHERE id = $6 AND knowledge_base_id = $7 AND version = $8`,
		a.Title, a.Body, a.Version, stored(now), a.UpdatedBy, a.ID, a.KnowledgeBase, expected, t, b)
}

func (k pgKnowledge) DeleteArticle(ctx context.Context, kb, id string) (bool, error) {
	tag, err := pgTx(k).exec(ctx, "deleting article "+id, `DELETE FROM knowledge_articles WHERE id = $1 AND knowledge_base_id = $2`, id, kb)
	return err == nil && tag.RowsAffected() > 0, err
}

func (k pgKnowledge) DeleteBase(ctx context.Context, id string) (bool, error) {
	if _, err := pgTx(k).exec(ctx, "deleting the articles of knowledge base "+id, `DELETE FROM knowledge_articles WHERE knowledge_base_id = $1`, id); err != nil {
		return false, err
	}
	tag, err := pgTx(k).exec(ctx, "deleting knowledge base "+id, `DELETE FROM knowledge_bases WHERE id = $1`, id)
	return err == nil && tag.RowsAffected() > 0, err
}

func (k pgKnowledge) ArticleStats(ctx context.Context, kb string) (count, versions int64, newest time.Time, err error) {
	var upd string
	err = pgTx(k).row(ctx, "knowledge base "+kb, []any{&count, &versions, &upd}, `SELECT COUNT(*), COALESCE(SUM(version), 0)::bigint, COALESCE(MAX(updated_at), '')
		FROM knowledge_articles WHERE knowledge_base_id = $1`, kb)
	if err != nil {
		return 0, 0, time.Time{}, err
	}
	return count, versions, notes.ParseStoredTime(upd), nil
}
