package notes

import (
	"context"
	"errors"
	"fmt"
)

// Places is the workspaces and projects every Note, knowledge base and
// Record channel belongs to, and where each item sits in them: the
// Connected endpoint reads an item's place on every call to check access.
type Places struct{ *core }

// CreateWorkspace creates a workspace; id "" picks a fresh one.
func (p *Places) CreateWorkspace(ctx context.Context, id, name string) (Workspace, error) {
	if err := checkTitle("workspace name", name); err != nil {
		return Workspace{}, err
	}
	w := Workspace{ID: orNewID(id, "ws"), Name: name}
	if err := p.b.Pool().Places().InsertWorkspace(ctx, w, p.now()); err != nil {
		return Workspace{}, fmt.Errorf("creating workspace %q: %w", name, err)
	}
	return w, nil
}

// CreateProject creates a project in workspace; id "" picks a fresh one.
func (p *Places) CreateProject(ctx context.Context, workspace, id, name string) (Project, error) {
	if err := checkTitle("project name", name); err != nil {
		return Project{}, err
	}
	rows := p.b.Pool().Places()
	if err := rows.WorkspaceExists(ctx, workspace); err != nil {
		return Project{}, fmt.Errorf("creating project %q: %w", name, err)
	}
	pr := Project{ID: orNewID(id, "proj"), Workspace: workspace, Name: name}
	if err := rows.InsertProject(ctx, pr, p.now()); err != nil {
		return Project{}, fmt.Errorf("creating project %q: %w", name, err)
	}
	return pr, nil
}

// ListWorkspaces returns every workspace by name.
func (p *Places) ListWorkspaces(ctx context.Context) ([]Workspace, error) {
	return p.b.Pool().Places().Workspaces(ctx)
}

// ListProjects returns a workspace's projects by name.
func (p *Places) ListProjects(ctx context.Context, workspace string) ([]Project, error) {
	return p.b.Pool().Places().Projects(ctx, workspace)
}

// GetProject returns one project; ErrNotFound when there is none.
func (p *Places) GetProject(ctx context.Context, id string) (Project, error) {
	return p.b.Pool().Places().Project(ctx, id)
}

// Locate returns an item's current workspace and project.
func (p *Places) Locate(ctx context.Context, kind, id string) (Target, error) {
	t, err := p.b.Pool().Places().Locate(ctx, kind, id)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return t, fmt.Errorf("locating %s %s: %w", kind, id, err)
	}
	return t, err
}

// ProjectResources lists a project's Notes, knowledge bases and Record
// channels, including ones added later (it reads the project now).
func (p *Places) ProjectResources(ctx context.Context, projectID string) ([]Resource, error) {
	return p.b.Pool().Places().ProjectResources(ctx, projectID)
}

// checkPlacement verifies workspace exists and project ("" allowed) is in it.
func (c *core) checkPlacement(ctx context.Context, rows PlaceRows, workspace, project string) error {
	if err := rows.WorkspaceExists(ctx, workspace); err != nil {
		return err
	}
	if project == "" {
		return nil
	}
	pr, err := rows.Project(ctx, project)
	if err != nil {
		return err
	}
	if pr.Workspace != workspace {
		return fmt.Errorf("%w: project %s belongs to another workspace", ErrInvalid, project)
	}
	return nil
}

// move puts an item of kind in another project of its workspace. Access
// checks read the project on every call, so the move takes effect on the
// next call.
func (c *core) move(ctx context.Context, kind, id, projectID string) error {
	rows := c.b.Pool().Places()
	t, err := rows.Locate(ctx, kind, id)
	if err != nil {
		return fmt.Errorf("moving %s: %w", id, err)
	}
	if err := c.checkPlacement(ctx, rows, t.Workspace, projectID); err != nil {
		return fmt.Errorf("moving %s: %w", id, err)
	}
	if err := rows.SetProject(ctx, kind, id, projectID); err != nil {
		return fmt.Errorf("moving %s: %w", id, err)
	}
	return nil
}
