// Package teamweb is what a person does on the team server in a browser:
// the projects of their workspaces, and which projects each assistant they
// connected may reach. It is how a project is shared with a teammate: an
// editor creates the project, invites the teammate (teamauth's members),
// and the teammate gives their own assistant that project.
//
// A connection's projects are the connection's approver's to choose (or
// a workspace owner's, who may also revoke any connection of the
// workspace). Everything is checked again on every call: a project must
// belong to the connection's workspace, and what the assistant may then
// do there still follows its approver's role (backend/teamconnect).
package teamweb

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/teamauth"
)

// Config is what the team server passes in.
type Config struct {
	Auth    *teamauth.Service
	Notes   *notes.Store
	Connect *connect.Service
	// ConnectionsOf lists the ids of the connections a person approved,
	// newest first (teamconnect.Store.ConnectionsOf).
	ConnectionsOf func(ctx context.Context, personID string) ([]string, error)
	Logger        *slog.Logger
}

// Web serves the pages and the JSON API below.
type Web struct{ cfg Config }

// New checks cfg and returns the service.
func New(cfg Config) (*Web, error) {
	if cfg.Auth == nil || cfg.Notes == nil || cfg.Connect == nil || cfg.ConnectionsOf == nil {
		return nil, errors.New("teamweb: Auth, Notes, Connect and ConnectionsOf are required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Web{cfg: cfg}, nil
}

func badInput(format string, a ...any) error {
	return teamauth.Refuse(http.StatusBadRequest, format, a...)
}

func notFound(format string, a ...any) error {
	return teamauth.Refuse(http.StatusNotFound, format, a...)
}

// Projects lists a workspace's projects by name (members only).
func (w *Web) Projects(ctx context.Context, personID, workspace string) ([]notes.Project, error) {
	if err := w.cfg.Auth.Require(ctx, personID, workspace, teamauth.Read); err != nil {
		return nil, err
	}
	ps, err := w.cfg.Notes.ListProjects(ctx, workspace)
	if err != nil {
		return nil, fmt.Errorf("listing the workspace's projects: %w", err)
	}
	if ps == nil {
		ps = []notes.Project{}
	}
	return ps, nil
}

// CreateProject adds a project to a workspace (editors and owners). Names
// are unique within a workspace, whatever their case, so a teammate picks
// the right one.
func (w *Web) CreateProject(ctx context.Context, personID, workspace, name string) (notes.Project, error) {
	name = strings.TrimSpace(name)
	if name == "" || len([]rune(name)) > notes.MaxTitleChars || strings.ContainsAny(name, "\r\n\t") {
		return notes.Project{}, badInput("a project name is 1 to %d characters on one line", notes.MaxTitleChars)
	}
	if err := w.cfg.Auth.Require(ctx, personID, workspace, teamauth.Write); err != nil {
		return notes.Project{}, err
	}
	if err := EnsureWorkspace(ctx, w.cfg.Auth, w.cfg.Notes, personID, workspace); err != nil {
		return notes.Project{}, err
	}
	have, err := w.cfg.Notes.ListProjects(ctx, workspace)
	if err != nil {
		return notes.Project{}, fmt.Errorf("listing the workspace's projects: %w", err)
	}
	if slices.ContainsFunc(have, func(p notes.Project) bool { return strings.EqualFold(p.Name, name) }) {
		return notes.Project{}, teamauth.Refuse(http.StatusConflict, "a project named %q is already in this workspace: pick it, or choose another name", name)
	}
	p, err := w.cfg.Notes.CreateProject(ctx, workspace, "", name)
	if err != nil {
		return notes.Project{}, fmt.Errorf("creating the project: %w", err)
	}
	return p, nil
}

// EnsureWorkspace makes the notes side of a teamauth workspace (same id,
// same name) the first time a project is created in it, for a person who
// belongs to it.
func EnsureWorkspace(ctx context.Context, auth *teamauth.Service, st *notes.Store, personID, workspace string) error {
	all, err := st.ListWorkspaces(ctx)
	if err != nil {
		return fmt.Errorf("reading the workspaces: %w", err)
	}
	if slices.ContainsFunc(all, func(ws notes.Workspace) bool { return ws.ID == workspace }) {
		return nil
	}
	mine, err := auth.Workspaces(ctx, personID)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(mine, func(ws teamauth.Workspace) bool { return ws.ID == workspace })
	if i < 0 {
		return fmt.Errorf("%w: not a member any more", teamauth.ErrNotMember)
	}
	if _, err := st.CreateWorkspace(ctx, workspace, mine[i].Name); err != nil {
		// Another replica may have made it in the meantime.
		if all, lerr := st.ListWorkspaces(ctx); lerr == nil &&
			slices.ContainsFunc(all, func(ws notes.Workspace) bool { return ws.ID == workspace }) {
			return nil
		}
		return fmt.Errorf("preparing the workspace for projects: %w", err)
	}
	return nil
}

// Assistants are the connections person approved, newest first.
func (w *Web) Assistants(ctx context.Context, personID string) ([]connect.Connection, error) {
	ids, err := w.cfg.ConnectionsOf(ctx, personID)
	if err != nil {
		return nil, err
	}
	out := make([]connect.Connection, 0, len(ids))
	for _, id := range ids {
		c, err := w.cfg.Connect.Connection(ctx, id)
		if errors.Is(err, connect.ErrNotFound) {
			continue // gone since it was listed
		}
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// connection is connID if person may manage it: they approved it, or
// they own its workspace. Anyone else reads "not found", so ids of other
// people's connections reveal nothing.
func (w *Web) connection(ctx context.Context, personID, connID string) (connect.Connection, error) {
	none := notFound("no assistant connection %q of yours: pick one from your page", connID)
	c, err := w.cfg.Connect.Connection(ctx, connID)
	if errors.Is(err, connect.ErrNotFound) {
		return c, none
	}
	if err != nil {
		return c, err
	}
	if c.Approver == personID && c.Approver != "" {
		return c, nil
	}
	if c.Workspace == "" {
		return c, none
	}
	d, err := w.cfg.Auth.Can(ctx, personID, c.Workspace, teamauth.ManageMembers)
	if err != nil {
		return c, err
	}
	if !d.Allowed {
		return c, none
	}
	return c, nil
}

// SetProject gives the assistant of connID access to project (on) or
// takes it away, effective on its next call.
func (w *Web) SetProject(ctx context.Context, personID, connID, project string, on bool) (connect.Connection, error) {
	c, err := w.connection(ctx, personID, connID)
	if err != nil {
		return c, err
	}
	if on {
		if c.Status != connect.StatusConnected {
			return c, teamauth.Refuse(http.StatusConflict, "%s is %s: connect the assistant again before giving it projects", c.DisplayName, c.Status)
		}
		// The actor must still be able to see the workspace: a member
		// removed since the page was drawn adds nothing.
		if err := w.cfg.Auth.Require(ctx, personID, c.Workspace, teamauth.Read); err != nil {
			return c, err
		}
		p, err := w.cfg.Notes.GetProject(ctx, project)
		if errors.Is(err, notes.ErrNotFound) || (err == nil && p.Workspace != c.Workspace) {
			return c, notFound("no project %q in this assistant's workspace: pick one of the workspace's projects", project)
		}
		if err != nil {
			return c, fmt.Errorf("reading the project: %w", err)
		}
		if err := w.cfg.Connect.AddProject(ctx, c.ID, project); err != nil {
			return c, fmt.Errorf("adding the project: %w", err)
		}
	} else if err := w.cfg.Connect.RemoveProject(ctx, c.ID, project); err != nil && !errors.Is(err, connect.ErrNotFound) {
		return c, fmt.Errorf("removing the project: %w", err)
	}
	return w.cfg.Connect.Connection(ctx, c.ID)
}

// Revoke cuts an assistant off: its every call is refused from the next.
func (w *Web) Revoke(ctx context.Context, personID, connID string) (connect.Connection, error) {
	c, err := w.connection(ctx, personID, connID)
	if err != nil {
		return c, err
	}
	if c.Status != connect.StatusRevoked {
		if err := w.cfg.Connect.Revoke(ctx, c.ID); err != nil {
			return c, fmt.Errorf("revoking: %w", err)
		}
	}
	return w.cfg.Connect.Connection(ctx, c.ID)
}
