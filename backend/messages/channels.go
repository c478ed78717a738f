package messages

import (
	"context"
	"fmt"
	"strings"
)

// NewChannel describes a channel to create.
type NewChannel struct {
	// ID is the channel's id when another store already named it (a
	// synced project's channel taken from the team server); "" picks one.
	ID        string
	Workspace string
	Project   string // "" = outside every project
	Name      string
	Private   bool
	Owner     string // required for a private channel
}

// CreateChannel creates a Message channel.
func (s *Store) CreateChannel(ctx context.Context, n NewChannel) (Channel, error) {
	name, err := checkName(n.Name)
	if err != nil {
		return Channel{}, err
	}
	if strings.TrimSpace(n.Workspace) == "" {
		return Channel{}, fmt.Errorf("%w: a workspace id is required", ErrInvalid)
	}
	if n.Private && strings.TrimSpace(n.Owner) == "" {
		return Channel{}, fmt.Errorf("%w: a private channel needs an owner", ErrInvalid)
	}
	id := n.ID
	if id == "" {
		id = newID("ch_")
	}
	c := Channel{ID: id, Workspace: n.Workspace, Project: n.Project, Name: name,
		Private: n.Private, Owner: n.Owner, CreatedAt: s.stamp()}
	if err := s.b.Pool().Channels().InsertChannel(ctx, c); err != nil {
		return Channel{}, fmt.Errorf("creating channel: %w", err)
	}
	return c, nil
}

// Discussion returns a project's discussion channel, creating it the first
// time (a project has exactly one; the backend settles a race).
func (s *Store) Discussion(ctx context.Context, workspace, project string) (Channel, error) {
	if strings.TrimSpace(workspace) == "" || strings.TrimSpace(project) == "" {
		return Channel{}, fmt.Errorf("%w: a workspace and a project are required", ErrInvalid)
	}
	rows := s.b.Pool().Channels()
	err := rows.InsertDiscussion(ctx, Channel{ID: newID("ch_"), Workspace: workspace, Project: project,
		Name: "discussion", Discussion: true, CreatedAt: s.stamp()})
	if err != nil {
		return Channel{}, fmt.Errorf("creating discussion channel: %w", err)
	}
	c, err := rows.Discussion(ctx, project)
	if err != nil {
		return Channel{}, fmt.Errorf("reading discussion channel: %w", err)
	}
	if c.Workspace != workspace {
		return Channel{}, fmt.Errorf("%w: project %s is in workspace %s", ErrInvalid, project, c.Workspace)
	}
	return c, nil
}

// Channel returns one channel; ErrNotFound when there is none.
func (s *Store) Channel(ctx context.Context, id string) (Channel, error) {
	return s.b.Pool().Channels().Channel(ctx, id)
}

// ListChannels lists a workspace's channels, discussion channels first,
// then by name. project "" lists every channel of the workspace.
func (s *Store) ListChannels(ctx context.Context, workspace, project string) ([]Channel, error) {
	cs, err := s.b.Pool().Channels().Channels(ctx, workspace, project)
	if err != nil {
		return nil, fmt.Errorf("listing channels: %w", err)
	}
	return cs, nil
}

// channelWorkspaces lists the workspaces that have a channel.
func (s *Store) channelWorkspaces(ctx context.Context) ([]string, error) {
	ws, err := s.b.Pool().Channels().Workspaces(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing workspaces: %w", err)
	}
	return ws, nil
}

// ProjectDiscussion returns a project's discussion channel, creating it if
// the project (the notes store's) has none yet.
func (s *Store) ProjectDiscussion(ctx context.Context, project string) (Channel, error) {
	ws, err := s.b.Pool().Places().ProjectWorkspace(ctx, project)
	if err != nil {
		return Channel{}, err
	}
	return s.Discussion(ctx, ws, project)
}

// EnsureDiscussions gives every project that has none its discussion
// channel (projects created before this store existed, or by another
// process).
func (s *Store) EnsureDiscussions(ctx context.Context) error {
	todo, err := s.b.Pool().Places().ProjectsWithoutDiscussion(ctx)
	if err != nil {
		return fmt.Errorf("listing projects without a discussion channel: %w", err)
	}
	for _, p := range todo {
		if _, err := s.Discussion(ctx, p.Workspace, p.ID); err != nil {
			return err
		}
	}
	return nil
}
