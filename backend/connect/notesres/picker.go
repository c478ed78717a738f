package notesres

import (
	"context"
	"fmt"

	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/notes"
)

// Picker lists what the Connected panel's pickers offer: projects for
// Projects → Add to project and channels for Message channels → Choose a
// Message channel. It reads the notes store now, so a project created a
// moment ago is offered. Bound to the window; methods take no context.
type Picker struct {
	ctx    context.Context
	places *notes.Places
	ms     *messages.Store
}

// NewPicker lists projects from s's places and Message channels from ms;
// ctx is the app's lifetime.
func NewPicker(ctx context.Context, s *notes.Store, ms *messages.Store) *Picker {
	return &Picker{ctx: ctx, places: s.Places, ms: ms}
}

// PickProject is one project offered to a connection, with what adding
// it opens besides its Notes.
type PickProject struct {
	ID            string         `json:"id"`
	Name          string         `json:"name"`
	Workspace     string         `json:"workspace"`
	WorkspaceName string         `json:"workspaceName"`
	Opens         []PickResource `json:"opens"`
}

// PickResource is a knowledge base, Record channel or discussion channel
// that a project opens.
type PickResource struct {
	Kind string `json:"kind"` // knowledge_base, record_channel, message_channel
	ID   string `json:"id"`
	Name string `json:"name"`
}

// PickWorkspace names a workspace.
type PickWorkspace struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Workspaces lists the workspaces by name.
func (p *Picker) Workspaces() ([]PickWorkspace, error) {
	ws, err := p.places.ListWorkspaces(p.ctx)
	if err != nil {
		return nil, err
	}
	out := make([]PickWorkspace, 0, len(ws))
	for _, w := range ws {
		out = append(out, PickWorkspace{ID: w.ID, Name: w.Name})
	}
	return out, nil
}

// opens lists a project's knowledge bases and Record channels by name,
// then its discussion channel.
func (p *Picker) opens(project string) ([]PickResource, error) {
	rs, err := p.places.ProjectResources(p.ctx, project)
	if err != nil {
		return nil, err
	}
	out := []PickResource{}
	for _, r := range rs {
		if r.Kind == notes.ResourceKnowledgeBase || r.Kind == notes.ResourceRecordChannel {
			out = append(out, PickResource{Kind: r.Kind, ID: r.ID, Name: r.Title})
		}
	}
	disc, err := p.ms.ProjectDiscussion(p.ctx, project)
	if err != nil {
		return nil, fmt.Errorf("finding the discussion channel of project %s: %w", project, err)
	}
	return append(out, PickResource{Kind: messages.KindChannel, ID: disc.ID, Name: disc.Name}), nil
}

// PickChannel is one channel that can be invited on its own. Project is
// "" for a channel outside every project.
type PickChannel struct {
	ID            string `json:"id"`
	Name          string `json:"name"`
	Kind          string `json:"kind"`
	Private       bool   `json:"private"`
	Project       string `json:"project"`
	Workspace     string `json:"workspace"`
	WorkspaceName string `json:"workspaceName"`
}

// Projects lists every workspace's projects, workspaces and projects by name.
func (p *Picker) Projects() ([]PickProject, error) {
	ws, err := p.places.ListWorkspaces(p.ctx)
	if err != nil {
		return nil, err
	}
	out := []PickProject{}
	for _, w := range ws {
		ps, err := p.places.ListProjects(p.ctx, w.ID)
		if err != nil {
			return nil, err
		}
		for _, pr := range ps {
			opens, err := p.opens(pr.ID)
			if err != nil {
				return nil, err
			}
			out = append(out, PickProject{ID: pr.ID, Name: pr.Name, Workspace: w.ID, WorkspaceName: w.Name, Opens: opens})
		}
	}
	return out, nil
}

// Channels lists the Message channels an invite can open: every channel
// but the discussion channels (a project opens its own), by workspace.
func (p *Picker) Channels() ([]PickChannel, error) {
	ws, err := p.places.ListWorkspaces(p.ctx)
	if err != nil {
		return nil, err
	}
	out := []PickChannel{}
	for _, w := range ws {
		cs, err := p.ms.ListChannels(p.ctx, w.ID, "")
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			// The panel invites as the owner, and a private channel opens
			// only with its owner's invite: offer only what an invite opens.
			if c.Discussion || c.Private && c.Owner != messages.OwnerID {
				continue
			}
			out = append(out, PickChannel{ID: c.ID, Name: c.Name, Kind: messages.KindChannel, Private: c.Private, Project: c.Project,
				Workspace: w.ID, WorkspaceName: w.Name})
		}
	}
	return out, nil
}
