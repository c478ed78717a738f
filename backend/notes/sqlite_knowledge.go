package notes

import (
	"context"
	"time"
)

// sqliteKnowledge keeps knowledge bases and articles (knowledge_bases,
// knowledge_articles with the updated_by column of the knowledge migration).
type sqliteKnowledge sqliteTx

var _ KnowledgeRows = sqliteKnowledge{}

const kbCols = `id, workspace_id, COALESCE(project_id, ''), name`

func scanKB(sc scanner) (KnowledgeBase, error) {
	var kb KnowledgeBase
	return kb, sc.Scan(&kb.ID, &kb.Workspace, &kb.Project, &kb.Name)
}

func (k sqliteKnowledge) InsertBase(ctx context.Context, kb KnowledgeBase, now time.Time) error {
	_, err := sqliteTx(k).exec(ctx, `INSERT INTO knowledge_bases (id, workspace_id, project_id, name, created_at) VALUES (?, ?, ?, ?, ?)`,
		kb.ID, kb.Workspace, nullable(kb.Project), kb.Name, formatTime(now))
	return err
}

func (k sqliteKnowledge) Base(ctx context.Context, id string) (KnowledgeBase, error) {
	kb, err := scanKB(k.q.QueryRowContext(ctx, `SELECT `+kbCols+` FROM knowledge_bases WHERE id = ?`, id))
	return kb, rowErr(err, "knowledge base "+id)
}

func (k sqliteKnowledge) Bases(ctx context.Context, workspace string) ([]KnowledgeBase, error) {
	return collect(ctx, k.q, "knowledge bases", scanKB,
		`SELECT `+kbCols+` FROM knowledge_bases WHERE workspace_id = ? ORDER BY name, id`, workspace)
}

func (k sqliteKnowledge) PutArticle(ctx context.Context, kb, id, title, body string, now time.Time) error {
	_, err := sqliteTx(k).exec(ctx, `INSERT INTO knowledge_articles (id, knowledge_base_id, title, body, version, created_at, updated_at)
		VALUES (?, ?, ?, ?, 1, ?, ?)
		ON CONFLICT (id) DO UPDATE SET title = excluded.title, body = excluded.body,
			version = knowledge_articles.version + 1, updated_at = excluded.updated_at
		WHERE knowledge_articles.knowledge_base_id = excluded.knowledge_base_id`, id, kb, title, body, formatTime(now), formatTime(now))
	return err
}

const articleDocCols = `id, knowledge_base_id, title, body, version, updated_at, updated_by`

func scanArticleDoc(sc scanner) (ArticleDoc, error) {
	var a ArticleDoc
	var upd string
	if err := sc.Scan(&a.ID, &a.KnowledgeBase, &a.Title, &a.Body, &a.Version, &upd, &a.UpdatedBy); err != nil {
		return ArticleDoc{}, err
	}
	a.UpdatedAt = parseTime(upd)
	return a, nil
}

func (k sqliteKnowledge) Article(ctx context.Context, kb, id string) (ArticleDoc, error) {
	a, err := scanArticleDoc(k.q.QueryRowContext(ctx, `SELECT `+articleDocCols+` FROM knowledge_articles
		WHERE id = ? AND knowledge_base_id = ?`, id, kb))
	return a, rowErr(err, "article "+id+" of knowledge base "+kb)
}

func (k sqliteKnowledge) Articles(ctx context.Context, kb string) ([]ArticleDoc, error) {
	return collect(ctx, k.q, "articles", scanArticleDoc, `SELECT id, knowledge_base_id, title, '', version, updated_at, updated_by
		FROM knowledge_articles WHERE knowledge_base_id = ? ORDER BY updated_at DESC, id`, kb)
}

func (k sqliteKnowledge) SetAuthor(ctx context.Context, id, author string) error {
	_, err := sqliteTx(k).exec(ctx, `UPDATE knowledge_articles SET updated_by = ? WHERE id = ?`, author, id)
	return err
}

func (k sqliteKnowledge) UpdateArticleIfVersion(ctx context.Context, a ArticleDoc, expected int64, now time.Time) (bool, error) {
	res, err := sqliteTx(k).exec(ctx, `UPDATE knowledge_articles SET title = ?, body = ?, version = ?, updated_at = ?, updated_by = ?
		WHERE id = ? AND knowledge_base_id = ? AND version = ?`, a.Title, a.Body, a.Version, formatTime(now), a.UpdatedBy, a.ID, a.KnowledgeBase, expected)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func (k sqliteKnowledge) DeleteArticle(ctx context.Context, kb, id string) (bool, error) {
	res, err := sqliteTx(k).exec(ctx, `DELETE FROM knowledge_articles WHERE id = ? AND knowledge_base_id = ?`, id, kb)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

func (k sqliteKnowledge) DeleteBase(ctx context.Context, id string) (bool, error) {
	if _, err := sqliteTx(k).exec(ctx, `DELETE FROM knowledge_articles WHERE knowledge_base_id = ?`, id); err != nil {
		return false, err
	}
	res, err := sqliteTx(k).exec(ctx, `DELETE FROM knowledge_bases WHERE id = ?`, id)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

func (k sqliteKnowledge) ArticleStats(ctx context.Context, kb string) (count, versions int64, newest time.Time, err error) {
	var upd string
	err = k.q.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(version), 0), COALESCE(MAX(updated_at), '')
		FROM knowledge_articles WHERE knowledge_base_id = ?`, kb).Scan(&count, &versions, &upd)
	if err != nil {
		return 0, 0, time.Time{}, rowErr(err, "knowledge base "+kb)
	}
	return count, versions, parseTime(upd), nil
}
