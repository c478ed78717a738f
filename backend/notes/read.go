package notes

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// ListWorkspaces returns every workspace by name.
func (s *Store) ListWorkspaces(ctx context.Context) ([]Workspace, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, name FROM workspaces ORDER BY name, id`)
	if err != nil {
		return nil, fmt.Errorf("listing workspaces: %w", err)
	}
	defer rows.Close()
	out := []Workspace{}
	for rows.Next() {
		var w Workspace
		if err := rows.Scan(&w.ID, &w.Name); err != nil {
			return nil, fmt.Errorf("listing workspaces: %w", err)
		}
		out = append(out, w)
	}
	return out, rows.Err()
}

// ListProjects returns a workspace's projects by name.
func (s *Store) ListProjects(ctx context.Context, workspace string) ([]Project, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, workspace_id, name FROM projects WHERE workspace_id = ? ORDER BY name, id`, workspace)
	if err != nil {
		return nil, fmt.Errorf("listing projects: %w", err)
	}
	defer rows.Close()
	out := []Project{}
	for rows.Next() {
		var p Project
		if err := rows.Scan(&p.ID, &p.Workspace, &p.Name); err != nil {
			return nil, fmt.Errorf("listing projects: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

const noteCols = `id, workspace_id, COALESCE(project_id, ''), title, version, updated_at`

func scanNote(sc interface{ Scan(...any) error }) (NoteInfo, error) {
	var n NoteInfo
	var upd string
	if err := sc.Scan(&n.ID, &n.Workspace, &n.Project, &n.Title, &n.Version, &upd); err != nil {
		return NoteInfo{}, err
	}
	n.UpdatedAt = parseTime(upd)
	return n, nil
}

// ListNotes returns a workspace's Notes, most recently changed first;
// project "" lists all of them.
func (s *Store) ListNotes(ctx context.Context, workspace, project string) ([]NoteInfo, error) {
	q := `SELECT ` + noteCols + ` FROM notes WHERE workspace_id = ?`
	args := []any{workspace}
	if project != "" {
		q += ` AND project_id = ?`
		args = append(args, project)
	}
	rows, err := s.db.QueryContext(ctx, q+` ORDER BY updated_at DESC, id`, args...)
	if err != nil {
		return nil, fmt.Errorf("listing notes: %w", err)
	}
	defer rows.Close()
	out := []NoteInfo{}
	for rows.Next() {
		n, err := scanNote(rows)
		if err != nil {
			return nil, fmt.Errorf("listing notes: %w", err)
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// NoteInfo returns a Note's header.
func (s *Store) NoteInfo(ctx context.Context, noteID string) (NoteInfo, error) {
	n, err := scanNote(s.db.QueryRowContext(ctx, `SELECT `+noteCols+` FROM notes WHERE id = ?`, noteID))
	if errors.Is(err, sql.ErrNoRows) {
		return NoteInfo{}, fmt.Errorf("note %s: %w", noteID, ErrNotFound)
	}
	if err != nil {
		return NoteInfo{}, fmt.Errorf("reading note %s: %w", noteID, err)
	}
	return n, nil
}

// GetNote returns a Note with every tab's content, read in one transaction
// so the version matches the contents.
func (s *Store) GetNote(ctx context.Context, noteID string) (Note, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return Note{}, fmt.Errorf("reading note %s: %w", noteID, lockErr(err))
	}
	defer tx.Rollback()
	info, err := scanNote(tx.QueryRowContext(ctx, `SELECT `+noteCols+` FROM notes WHERE id = ?`, noteID))
	if errors.Is(err, sql.ErrNoRows) {
		return Note{}, fmt.Errorf("note %s: %w", noteID, ErrNotFound)
	}
	if err != nil {
		return Note{}, fmt.Errorf("reading note %s: %w", noteID, err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, kind, title, position, version, updated_at, data
		FROM note_tabs WHERE note_id = ? ORDER BY position, id`, noteID)
	if err != nil {
		return Note{}, fmt.Errorf("reading tabs of %s: %w", noteID, err)
	}
	defer rows.Close()
	n := Note{NoteInfo: info, Tabs: []Tab{}}
	for rows.Next() {
		t, err := scanTab(rows)
		if err != nil {
			return Note{}, fmt.Errorf("reading tabs of %s: %w", noteID, err)
		}
		n.Tabs = append(n.Tabs, t)
	}
	return n, rows.Err()
}

func scanTab(sc interface{ Scan(...any) error }) (Tab, error) {
	var t Tab
	var upd, data string
	if err := sc.Scan(&t.ID, &t.Kind, &t.Title, &t.Position, &t.Version, &upd, &data); err != nil {
		return Tab{}, err
	}
	t.UpdatedAt = parseTime(upd)
	if err := t.setContent(data); err != nil {
		return Tab{}, fmt.Errorf("decoding tab %s: %w", t.ID, err)
	}
	return t, nil
}

// setContent decodes a tab's stored data column by kind. Text tabs store
// the text itself (no JSON) so the hot replace_text path encodes nothing.
func (t *Tab) setContent(data string) error {
	switch t.Kind {
	case KindText:
		t.Text = &data
	case KindSheet:
		t.Sheet = &SheetData{}
		return json.Unmarshal([]byte(data), t.Sheet)
	case KindSlides:
		t.Slides = &SlidesData{}
		return json.Unmarshal([]byte(data), t.Slides)
	default:
		t.Attachment = &Attachment{}
		return json.Unmarshal([]byte(data), t.Attachment)
	}
	return nil
}

// listTabs returns a Note's tabs without content.
func (s *Store) listTabs(ctx context.Context, q querier, noteID string) ([]TabInfo, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, kind, title, position, version, updated_at
		FROM note_tabs WHERE note_id = ? ORDER BY position, id`, noteID)
	if err != nil {
		return nil, fmt.Errorf("listing tabs of %s: %w", noteID, err)
	}
	defer rows.Close()
	out := []TabInfo{}
	for rows.Next() {
		var t TabInfo
		var upd string
		if err := rows.Scan(&t.ID, &t.Kind, &t.Title, &t.Position, &t.Version, &upd); err != nil {
			return nil, fmt.Errorf("listing tabs of %s: %w", noteID, err)
		}
		t.UpdatedAt = parseTime(upd)
		out = append(out, t)
	}
	return out, rows.Err()
}

var errNoRows = sql.ErrNoRows

type querier interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
}

func (s *Store) article(ctx context.Context, kbID, id string) (Article, error) {
	var a Article
	var upd string
	err := s.db.QueryRowContext(ctx, `SELECT id, knowledge_base_id, title, body, version, updated_at
		FROM knowledge_articles WHERE id = ? AND knowledge_base_id = ?`, id, kbID).
		Scan(&a.ID, &a.KnowledgeBase, &a.Title, &a.Body, &a.Version, &upd)
	if errors.Is(err, sql.ErrNoRows) {
		return Article{}, fmt.Errorf("article %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return Article{}, fmt.Errorf("reading article %s: %w", id, err)
	}
	a.UpdatedAt = parseTime(upd)
	return a, nil
}

const recordCols = `id, channel_id, title, status, fields, version, updated_at`

func scanRecord(sc interface{ Scan(...any) error }) (RecordItem, error) {
	var r RecordItem
	var fields, upd string
	if err := sc.Scan(&r.ID, &r.Channel, &r.Title, &r.Status, &fields, &r.Version, &upd); err != nil {
		return RecordItem{}, err
	}
	r.UpdatedAt = parseTime(upd)
	if err := json.Unmarshal([]byte(fields), &r.Fields); err != nil {
		return RecordItem{}, fmt.Errorf("decoding fields of %s: %w", r.ID, err)
	}
	return r, nil
}

func (s *Store) recordItem(ctx context.Context, channelID, id string) (RecordItem, error) {
	r, err := scanRecord(s.db.QueryRowContext(ctx, `SELECT `+recordCols+` FROM record_items WHERE id = ? AND channel_id = ?`, id, channelID))
	if errors.Is(err, sql.ErrNoRows) {
		return RecordItem{}, fmt.Errorf("record %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return RecordItem{}, fmt.Errorf("reading record %s: %w", id, err)
	}
	return r, nil
}
