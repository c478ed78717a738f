package pgnotes

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/osfoundry/desktop/backend/notes"
)

// pgPlaces keeps workspaces and projects, and the project column of notes,
// knowledge_bases and record_channels.
type pgPlaces pgTx

var _ notes.PlaceRows = pgPlaces{}

// placeTables names the table of each kind of item a project holds.
var placeTables = map[string]string{
	notes.ResourceNote: "notes", notes.ResourceKnowledgeBase: "knowledge_bases", notes.ResourceRecordChannel: "record_channels",
}

func (p pgPlaces) InsertWorkspace(ctx context.Context, w notes.Workspace, now time.Time) error {
	_, err := pgTx(p).exec(ctx, "creating workspace "+w.ID, `INSERT INTO workspaces (id, name, created_at) VALUES ($1, $2, $3)`,
		w.ID, w.Name, stored(now))
	return err
}

func (p pgPlaces) Workspaces(ctx context.Context) ([]notes.Workspace, error) {
	return collect(ctx, pgTx(p), "workspaces", func(sc pgx.Row) (notes.Workspace, error) {
		var w notes.Workspace
		return w, sc.Scan(&w.ID, &w.Name)
	}, `SELECT id, name FROM workspaces ORDER BY name, id`)
}

func (p pgPlaces) WorkspaceExists(ctx context.Context, id string) error {
	var n int
	return pgTx(p).row(ctx, "workspace "+id, []any{&n}, `SELECT 1 FROM workspaces WHERE id = $1`, id)
}

func (p pgPlaces) InsertProject(ctx context.Context, pr notes.Project, now time.Time) error {
	_, err := pgTx(p).exec(ctx, "creating project "+pr.ID, `INSERT INTO projects (id, workspace_id, name, created_at) VALUES ($1, $2, $3, $4)`,
		pr.ID, pr.Workspace, pr.Name, stored(now))
	return err
}

func (p pgPlaces) Project(ctx context.Context, id string) (notes.Project, error) {
	var pr notes.Project
	err := pgTx(p).row(ctx, "project "+id, []any{&pr.ID, &pr.Workspace, &pr.Name},
		`SELECT id, workspace_id, name FROM projects WHERE id = $1`, id)
	return pr, err
}

func (p pgPlaces) Projects(ctx context.Context, workspace string) ([]notes.Project, error) {
	return collect(ctx, pgTx(p), "projects", func(sc pgx.Row) (notes.Project, error) {
		var pr notes.Project
		return pr, sc.Scan(&pr.ID, &pr.Workspace, &pr.Name)
	}, `SELECT id, workspace_id, name FROM projects WHERE workspace_id = $1 ORDER BY name, id`, workspace)
}

func (p pgPlaces) Locate(ctx context.Context, kind, id string) (notes.Target, error) {
	table := placeTables[kind]
	if table == "" {
		return notes.Target{}, fmt.Errorf("%w: unknown resource kind %q", notes.ErrInvalid, kind)
	}
	t := notes.Target{Kind: kind, ID: id}
	err := pgTx(p).row(ctx, kind+" "+id, []any{&t.Workspace, &t.Project},
		`SELECT workspace_id, COALESCE(project_id, '') FROM `+table+` WHERE id = $1`, id)
	return t, err
}

func (p pgPlaces) SetProject(ctx context.Context, kind, id, project string) error {
	table := placeTables[kind]
	if table == "" {
		return fmt.Errorf("%w: unknown resource kind %q", notes.ErrInvalid, kind)
	}
	return pgTx(p).one(ctx, kind+" "+id, `UPDATE `+table+` SET project_id = $1 WHERE id = $2`, nullable(project), id)
}

func (p pgPlaces) ProjectResources(ctx context.Context, project string) ([]notes.Resource, error) {
	return collect(ctx, pgTx(p), "resources of project "+project, func(sc pgx.Row) (notes.Resource, error) {
		r := notes.Resource{Project: project}
		return r, sc.Scan(&r.Kind, &r.ID, &r.Title)
	}, `SELECT 'note' COLLATE "C" AS kind, id, title FROM notes WHERE project_id = $1
		UNION ALL SELECT 'knowledge_base', id, name FROM knowledge_bases WHERE project_id = $1
		UNION ALL SELECT 'record_channel', id, name FROM record_channels WHERE project_id = $1
		ORDER BY 1, 3, 2`, project)
}
