package notesres

import (
	"context"

	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/notes"
)

// Picker lists what the Connected panel's pickers offer: projects for
// Projects → Add to project and channels for Message channels → Choose a
// Message channel. It reads the notes store now, so a project created a
// moment ago is offered. Bound to the window; methods take no context.
type Picker struct {
	ctx context.Context
	s   *notes.Store
	ms  *messages.Store
}

// NewPicker lists projects from s and Message channels from ms; ctx is
// the app's lifetime.
func NewPicker(ctx context.Context, s *notes.Store, ms *messages.Store) *Picker {
	return &Picker{ctx: ctx, s: s, ms: ms}
}

// PickProject is one project offered to a connection.
type PickProject struct {
	ID            string `json:"id"`
	Name          string `json:"name"`
	Workspace     string `json:"workspace"`
	WorkspaceName string `json:"workspaceName"`
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
	ws, err := p.s.ListWorkspaces(p.ctx)
	if err != nil {
		return nil, err
	}
	out := []PickProject{}
	for _, w := range ws {
		ps, err := p.s.ListProjects(p.ctx, w.ID)
		if err != nil {
			return nil, err
		}
		for _, pr := range ps {
			out = append(out, PickProject{ID: pr.ID, Name: pr.Name, Workspace: w.ID, WorkspaceName: w.Name})
		}
	}
	return out, nil
}

// Channels lists every workspace's channels that a connection can be
// invited to: today the Record channels (the access check accepts an
// Channels lists the Message channels an invite can open: every channel
// but the discussion channels (a project opens its own), by workspace.
func (p *Picker) Channels() ([]PickChannel, error) {
	ws, err := p.s.ListWorkspaces(p.ctx)
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
