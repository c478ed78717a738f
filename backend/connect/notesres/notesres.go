// Package notesres serves the notes store (Notes, knowledge bases,
// Records) through the Connected endpoint: it adapts the notes store's
// tools and its Places (where each item sits, read on every call) to
// connect.Resources so neither package imports the other.
package notesres

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/tools"
)

// Adapter is connect.Resources (and connect.WorkspaceLister) over a
// notes.Store: its tools, and its Places for targets and listings.
type Adapter struct{ S *notes.Store }

var (
	_ connect.Resources       = Adapter{}
	_ connect.WorkspaceLister = Adapter{}
)

// New adapts s.
func New(s *notes.Store) Adapter { return Adapter{S: s} }

// Tools are the notes store's tools, unchanged.
func (a Adapter) Tools() []tools.Tool { return a.S.Tools() }

// CallTarget maps the store's answer: an unknown item is a Target with no
// workspace (the endpoint answers not_found without saying more).
func (a Adapter) CallTarget(ctx context.Context, tool string, args json.RawMessage) (connect.Target, error) {
	t, err := a.S.Places.CallTarget(ctx, tool, args)
	switch {
	case errors.Is(err, notes.ErrNotFound):
		return connect.Target{Kind: t.Kind, ID: t.ID}, nil
	case errors.Is(err, notes.ErrInvalid):
		return connect.Target{}, fmt.Errorf("%s: %w", tool, err)
	case err != nil:
		return connect.Target{}, err
	}
	return connect.Target{Kind: t.Kind, ID: t.ID, Workspace: t.Workspace, Project: t.Project}, nil
}

// ProjectResources lists a project's items now.
func (a Adapter) ProjectResources(ctx context.Context, project string) ([]connect.Resource, error) {
	rs, err := a.S.Places.ProjectResources(ctx, project)
	if err != nil {
		return nil, err
	}
	out := make([]connect.Resource, len(rs))
	for i, r := range rs {
		out[i] = connect.Resource{Kind: r.Kind, ID: r.ID, Title: r.Title, Project: r.Project}
	}
	return out, nil
}

// Workspaces names the workspaces for the consent page.
func (a Adapter) Workspaces(ctx context.Context) ([]connect.Workspace, error) {
	ws, err := a.S.Places.ListWorkspaces(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]connect.Workspace, len(ws))
	for i, w := range ws {
		out[i] = connect.Workspace{ID: w.ID, Name: w.Name}
	}
	return out, nil
}

// Open opens the notes store (knowledge folder knowledgeDir) and the
// connect Service over it on db: the one call the app and the headless
// commands make.
func Open(ctx context.Context, db *sql.DB, knowledgeDir string, runner connect.Runner) (*connect.Service, *notes.Store, error) {
	st, err := notes.Open(db, knowledgeDir)
	if err != nil {
		return nil, nil, err
	}
	svc, err := connect.Open(ctx, db, connect.Options{Resources: New(st), Runner: runner, Imports: Imports(st)})
	if err != nil {
		return nil, nil, err
	}
	return svc, st, nil
}
