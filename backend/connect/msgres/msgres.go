// Package msgres serves the message store through the Connected endpoint:
// it adapts *messages.Store to a connect.ToolSource, and adds each
// project's discussion channel to list_project_resources, so neither
// package imports the other.
package msgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/tools"
)

// Source is connect.ToolSource over a message store.
type Source struct{ S *messages.Store }

var _ connect.ToolSource = Source{}

// Tools are list_channel_messages and post_channel_message.
func (a Source) Tools() []tools.Tool { return a.S.Tools() }

// CallTarget reports the channel with its discussion project and, for a
// private channel, whose invite counts.
func (a Source) CallTarget(ctx context.Context, tool string, args json.RawMessage) (connect.Target, error) {
	t, err := a.S.CallTarget(ctx, tool, args)
	if errors.Is(err, messages.ErrInvalid) {
		return connect.Target{}, fmt.Errorf("%s: %w", tool, err)
	}
	if err != nil {
		return connect.Target{}, err
	}
	return connect.Target{Kind: t.Kind, ID: t.ID, Workspace: t.Workspace, Project: t.Project, InviteFrom: t.InviteFrom}, nil
}

// Resources adds each project's discussion channel to what
// list_project_resources shows.
type Resources struct {
	connect.Resources
	S *messages.Store
}

var (
	_ connect.Resources       = Resources{}
	_ connect.WorkspaceLister = Resources{}
)

// ProjectResources is the wrapped list plus the project's Message
// channels: its discussion channel, which the project opens, and its other
// channels, which only an invite opens.
func (r Resources) ProjectResources(ctx context.Context, project string) ([]connect.Resource, error) {
	out, err := r.Resources.ProjectResources(ctx, project)
	if err != nil {
		return nil, err
	}
	disc, err := r.S.ProjectDiscussion(ctx, project)
	if errors.Is(err, messages.ErrNotFound) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	cs, err := r.S.ListChannels(ctx, disc.Workspace, project)
	if err != nil {
		return nil, err
	}
	for _, c := range cs {
		res := connect.Resource{Kind: messages.KindChannel, ID: c.ID, Title: c.Name, Project: project}
		if c.ID != disc.ID {
			res.NeedsInvite = true
			if c.Private {
				res.InviteFrom = c.Owner
			}
		}
		out = append(out, res)
	}
	return out, nil
}

// Workspaces forwards to the wrapped Resources when it names workspaces.
func (r Resources) Workspaces(ctx context.Context) ([]connect.Workspace, error) {
	if wl, ok := r.Resources.(connect.WorkspaceLister); ok {
		return wl.Workspaces(ctx)
	}
	return nil, errors.New("listing workspaces: not supported")
}

// NameOf names a Connected caller ("connect:<id>") by its connection's
// display name, so a post shows which connection wrote it.
func NameOf(svc *connect.Service) func(ctx context.Context, source string) string {
	return func(ctx context.Context, source string) string {
		id, ok := strings.CutPrefix(source, "connect:")
		if !ok {
			return ""
		}
		c, err := svc.Connection(ctx, id)
		if err != nil {
			return ""
		}
		return c.DisplayName
	}
}
