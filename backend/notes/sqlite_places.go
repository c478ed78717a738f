package notes

import (
	"context"
	"fmt"
	"time"
)

// sqlitePlaces keeps workspaces and projects, and the project column of
// notes, knowledge_bases and record_channels.
type sqlitePlaces sqliteTx

var _ PlaceRows = sqlitePlaces{}

// placeTables names the table of each kind of item a project holds.
var placeTables = map[string]string{
	ResourceNote: "notes", ResourceKnowledgeBase: "knowledge_bases", ResourceRecordChannel: "record_channels",
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func (p sqlitePlaces) InsertWorkspace(ctx context.Context, w Workspace, now time.Time) error {
	_, err := sqliteTx(p).exec(ctx, `INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, ?)`, w.ID, w.Name, formatTime(now))
	return err
}

func (p sqlitePlaces) Workspaces(ctx context.Context) ([]Workspace, error) {
	return collect(ctx, p.q, "workspaces", func(sc scanner) (Workspace, error) {
		var w Workspace
		return w, sc.Scan(&w.ID, &w.Name)
	}, `SELECT id, name FROM workspaces ORDER BY name, id`)
}

func (p sqlitePlaces) WorkspaceExists(ctx context.Context, id string) error {
	var n int
	return rowErr(p.q.QueryRowContext(ctx, `SELECT 1 FROM workspaces WHERE id = ?`, id).Scan(&n), "workspace "+id)
}

func (p sqlitePlaces) InsertProject(ctx context.Context, pr Project, now time.Time) error {
	_, err := sqliteTx(p).exec(ctx, `INSERT INTO projects (id, workspace_id, name, created_at) VALUES (?, ?, ?, ?)`,
		pr.ID, pr.Workspace, pr.Name, formatTime(now))
	return err
}

func scanProject(sc scanner) (Project, error) {
	var pr Project
	return pr, sc.Scan(&pr.ID, &pr.Workspace, &pr.Name)
}

func (p sqlitePlaces) Project(ctx context.Context, id string) (Project, error) {
	pr, err := scanProject(p.q.QueryRowContext(ctx, `SELECT id, workspace_id, name FROM projects WHERE id = ?`, id))
	return pr, rowErr(err, "project "+id)
}

func (p sqlitePlaces) Projects(ctx context.Context, workspace string) ([]Project, error) {
	return collect(ctx, p.q, "projects", scanProject,
		`SELECT id, workspace_id, name FROM projects WHERE workspace_id = ? ORDER BY name, id`, workspace)
}

func (p sqlitePlaces) Locate(ctx context.Context, kind, id string) (Target, error) {
	table := placeTables[kind]
	if table == "" {
		return Target{}, fmt.Errorf("%w: unknown resource kind %q", ErrInvalid, kind)
	}
	t := Target{Kind: kind, ID: id}
	err := p.q.QueryRowContext(ctx, `SELECT workspace_id, COALESCE(project_id, '') FROM `+table+` WHERE id = ?`, id).
		Scan(&t.Workspace, &t.Project)
	return t, rowErr(err, kind+" "+id)
}

func (p sqlitePlaces) SetProject(ctx context.Context, kind, id, project string) error {
	table := placeTables[kind]
	if table == "" {
		return fmt.Errorf("%w: unknown resource kind %q", ErrInvalid, kind)
	}
	res, err := sqliteTx(p).exec(ctx, `UPDATE `+table+` SET project_id = ? WHERE id = ?`, nullable(project), id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%s %s: %w", kind, id, ErrNotFound)
	}
	return nil
}

func (p sqlitePlaces) ProjectResources(ctx context.Context, project string) ([]Resource, error) {
	return collect(ctx, p.q, "resources of project "+project, func(sc scanner) (Resource, error) {
		r := Resource{Project: project}
		return r, sc.Scan(&r.Kind, &r.ID, &r.Title)
	}, `SELECT 'note', id, title FROM notes WHERE project_id = ?
		UNION ALL SELECT 'knowledge_base', id, name FROM knowledge_bases WHERE project_id = ?
		UNION ALL SELECT 'record_channel', id, name FROM record_channels WHERE project_id = ?
		ORDER BY 1, 3, 2`, project, project, project)
}
