package notes

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Owner-side helpers: used by the app, owner commands and tests. They act
// with the owner's authority, so they take no version; the person's editor
// uses the conditional Save… functions in editor.go instead.

func checkTitle(what, title string) error {
	if strings.TrimSpace(title) == "" {
		return fmt.Errorf("%w: %s must not be empty", ErrInvalid, what)
	}
	if len([]rune(title)) > MaxTitleChars {
		return fmt.Errorf("%w: %s is longer than %d characters", ErrInvalid, what, MaxTitleChars)
	}
	return nil
}

func orNewID(id, prefix string) string {
	if id != "" {
		return id
	}
	return newID(prefix)
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// CreateWorkspace creates a workspace; id "" picks a fresh one.
func (s *Store) CreateWorkspace(ctx context.Context, id, name string) (Workspace, error) {
	if err := checkTitle("workspace name", name); err != nil {
		return Workspace{}, err
	}
	w := Workspace{ID: orNewID(id, "ws"), Name: name}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, ?)`,
		w.ID, w.Name, formatTime(s.now())); err != nil {
		return Workspace{}, fmt.Errorf("creating workspace %q: %w", name, lockErr(err))
	}
	return w, nil
}

// CreateProject creates a project in workspace; id "" picks a fresh one.
func (s *Store) CreateProject(ctx context.Context, workspace, id, name string) (Project, error) {
	if err := checkTitle("project name", name); err != nil {
		return Project{}, err
	}
	if err := s.exists(ctx, "workspaces", workspace); err != nil {
		return Project{}, fmt.Errorf("creating project %q: workspace %s: %w", name, workspace, err)
	}
	p := Project{ID: orNewID(id, "proj"), Workspace: workspace, Name: name}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO projects (id, workspace_id, name, created_at) VALUES (?, ?, ?, ?)`,
		p.ID, p.Workspace, p.Name, formatTime(s.now())); err != nil {
		return Project{}, fmt.Errorf("creating project %q: %w", name, lockErr(err))
	}
	return p, nil
}

// NewNote describes a Note to create. It starts with one text tab named
// "Note" holding Text, at version 1.
type NewNote struct {
	ID        string // "" picks a fresh id
	Workspace string
	Project   string // "" leaves the Note outside any project
	Title     string
	Text      string
}

// CreateNote creates a Note with its first text tab.
func (s *Store) CreateNote(ctx context.Context, n NewNote) (Note, error) {
	if err := checkTitle("note title", n.Title); err != nil {
		return Note{}, err
	}
	if len(n.Text) > MaxTextBytes {
		return Note{}, fmt.Errorf("%w: text is larger than %d bytes", ErrInvalid, MaxTextBytes)
	}
	if err := s.checkPlacement(ctx, n.Workspace, n.Project); err != nil {
		return Note{}, fmt.Errorf("creating note %q: %w", n.Title, err)
	}
	id := orNewID(n.ID, "note")
	now := formatTime(s.now())
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return Note{}, fmt.Errorf("creating note %q: %w", n.Title, err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO notes (id, workspace_id, project_id, title, version, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, id, n.Workspace, nullable(n.Project), n.Title, s.nextVersion(0), now, now); err != nil {
		return Note{}, fmt.Errorf("creating note %q: %w", n.Title, lockErr(err))
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO note_tabs (id, note_id, position, kind, title, data, version, created_at, updated_at)
		VALUES (?, ?, 0, 'text', 'Note', ?, ?, ?, ?)`, newID("tab"), id, n.Text, s.nextVersion(0), now, now); err != nil {
		return Note{}, fmt.Errorf("creating note %q: %w", n.Title, lockErr(err))
	}
	if err := tx.Commit(); err != nil {
		return Note{}, fmt.Errorf("creating note %q: %w", n.Title, lockErr(err))
	}
	return s.GetNote(ctx, id)
}

// checkPlacement verifies workspace exists and project ("" allowed) is in it.
func (s *Store) checkPlacement(ctx context.Context, workspace, project string) error {
	if err := s.exists(ctx, "workspaces", workspace); err != nil {
		return fmt.Errorf("workspace %s: %w", workspace, err)
	}
	if project == "" {
		return nil
	}
	var ws string
	err := s.db.QueryRowContext(ctx, `SELECT workspace_id FROM projects WHERE id = ?`, project).Scan(&ws)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("project %s: %w", project, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("reading project %s: %w", project, err)
	}
	if ws != workspace {
		return fmt.Errorf("%w: project %s belongs to another workspace", ErrInvalid, project)
	}
	return nil
}

func (s *Store) exists(ctx context.Context, table, id string) error {
	var one int
	err := s.db.QueryRowContext(ctx, `SELECT 1 FROM `+table+` WHERE id = ?`, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("reading %s: %w", table, err)
	}
	return nil
}

// MoveNote puts a Note in another project of its workspace. Access checks
// read the project on every call, so the move takes effect on the next call.
func (s *Store) MoveNote(ctx context.Context, noteID, projectID string) error {
	return s.move(ctx, "notes", noteID, projectID)
}

// MoveKnowledgeBase puts a knowledge base in another project.
func (s *Store) MoveKnowledgeBase(ctx context.Context, kbID, projectID string) error {
	return s.move(ctx, "knowledge_bases", kbID, projectID)
}

// MoveRecordChannel puts a Record channel in another project.
func (s *Store) MoveRecordChannel(ctx context.Context, channelID, projectID string) error {
	return s.move(ctx, "record_channels", channelID, projectID)
}

func (s *Store) move(ctx context.Context, table, id, projectID string) error {
	var ws string
	err := s.db.QueryRowContext(ctx, `SELECT workspace_id FROM `+table+` WHERE id = ?`, id).Scan(&ws)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("moving %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("moving %s: %w", id, err)
	}
	if err := s.checkPlacement(ctx, ws, projectID); err != nil {
		return fmt.Errorf("moving %s: %w", id, err)
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE `+table+` SET project_id = ? WHERE id = ?`, nullable(projectID), id); err != nil {
		return fmt.Errorf("moving %s: %w", id, lockErr(err))
	}
	if table == "notes" {
		// A move is not a content change, but an open editor may show the project.
		var v int64
		if err := s.db.QueryRowContext(ctx, `SELECT version FROM notes WHERE id = ?`, id).Scan(&v); err == nil {
			s.notify(id, v)
		}
	}
	return nil
}

// CreateKnowledgeBase creates a knowledge base; id "" picks a fresh one.
func (s *Store) CreateKnowledgeBase(ctx context.Context, workspace, project, id, name string) (KnowledgeBase, error) {
	if err := checkTitle("knowledge base name", name); err != nil {
		return KnowledgeBase{}, err
	}
	if err := s.checkPlacement(ctx, workspace, project); err != nil {
		return KnowledgeBase{}, fmt.Errorf("creating knowledge base %q: %w", name, err)
	}
	kb := KnowledgeBase{ID: orNewID(id, "kb"), Workspace: workspace, Project: project, Name: name}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO knowledge_bases (id, workspace_id, project_id, name, created_at) VALUES (?, ?, ?, ?, ?)`,
		kb.ID, workspace, nullable(project), name, formatTime(s.now())); err != nil {
		return KnowledgeBase{}, fmt.Errorf("creating knowledge base %q: %w", name, lockErr(err))
	}
	return kb, nil
}

// PutArticle creates an article (id "" picks a fresh one) or, when id
// exists in the knowledge base, replaces its title and body and bumps its
// version.
func (s *Store) PutArticle(ctx context.Context, kbID, id, title, body string) (Article, error) {
	if err := checkTitle("article title", title); err != nil {
		return Article{}, err
	}
	if len(body) > MaxTextBytes {
		return Article{}, fmt.Errorf("%w: article body is larger than %d bytes", ErrInvalid, MaxTextBytes)
	}
	if err := s.exists(ctx, "knowledge_bases", kbID); err != nil {
		return Article{}, fmt.Errorf("saving article %q: knowledge base %s: %w", title, kbID, err)
	}
	id = orNewID(id, "art")
	now := formatTime(s.now())
	_, err := s.db.ExecContext(ctx, `INSERT INTO knowledge_articles (id, knowledge_base_id, title, body, version, created_at, updated_at)
		VALUES (?, ?, ?, ?, 1, ?, ?)
		ON CONFLICT (id) DO UPDATE SET title = excluded.title, body = excluded.body,
			version = knowledge_articles.version + 1, updated_at = excluded.updated_at
		WHERE knowledge_articles.knowledge_base_id = excluded.knowledge_base_id`, id, kbID, title, body, now, now)
	if err != nil {
		return Article{}, fmt.Errorf("saving article %q: %w", title, lockErr(err))
	}
	return s.article(ctx, kbID, id)
}

// CreateRecordChannel creates a Record channel; id "" picks a fresh one.
func (s *Store) CreateRecordChannel(ctx context.Context, workspace, project, id, name string) (RecordChannel, error) {
	if err := checkTitle("record channel name", name); err != nil {
		return RecordChannel{}, err
	}
	if err := s.checkPlacement(ctx, workspace, project); err != nil {
		return RecordChannel{}, fmt.Errorf("creating record channel %q: %w", name, err)
	}
	c := RecordChannel{ID: orNewID(id, "rc"), Workspace: workspace, Project: project, Name: name}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO record_channels (id, workspace_id, project_id, name, created_at) VALUES (?, ?, ?, ?, ?)`,
		c.ID, workspace, nullable(project), name, formatTime(s.now())); err != nil {
		return RecordChannel{}, fmt.Errorf("creating record channel %q: %w", name, lockErr(err))
	}
	return c, nil
}

// CreateRecordItem adds an item at version 1; id "" picks a fresh one.
func (s *Store) CreateRecordItem(ctx context.Context, channelID, id, title, status string, fields map[string]any) (RecordItem, error) {
	if err := checkTitle("record title", title); err != nil {
		return RecordItem{}, err
	}
	if fields == nil {
		fields = map[string]any{}
	}
	if err := checkFields(fields); err != nil {
		return RecordItem{}, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	if err := s.exists(ctx, "record_channels", channelID); err != nil {
		return RecordItem{}, fmt.Errorf("creating record %q: channel %s: %w", title, channelID, err)
	}
	fj, err := json.Marshal(fields)
	if err != nil {
		return RecordItem{}, fmt.Errorf("encoding record fields: %w", err)
	}
	id = orNewID(id, "rec")
	now := formatTime(s.now())
	if _, err := s.db.ExecContext(ctx, `INSERT INTO record_items (id, channel_id, title, fields, status, version, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, 1, ?, ?)`, id, channelID, title, string(fj), status, now, now); err != nil {
		return RecordItem{}, fmt.Errorf("creating record %q: %w", title, lockErr(err))
	}
	return s.recordItem(ctx, channelID, id)
}
