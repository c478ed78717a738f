package teamsync

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/teamauth"
	"github.com/osfoundry/desktop/backend/teamweb"
)

// Snapshot is a project as it is now, with the number to pull after: what
// a desktop starts from when it begins to sync the project.
type Snapshot struct {
	Cursor  string        `json:"cursor"`
	Project notes.Project `json:"project"`
	Notes   []notes.Note  `json:"notes"`
	// KnowledgeBases and Articles are the project's knowledge, bodies included.
	KnowledgeBases []notes.KnowledgeBase `json:"knowledge_bases"`
	Articles       []notes.ArticleDoc    `json:"articles"`
	// RecordChannels and Records are the project's Record channels and items.
	RecordChannels []notes.RecordBoard `json:"record_channels"`
	Records        []notes.RecordItem  `json:"records"`
	// Posts are the newest posts of the project's discussion channel and
	// of its other shared Channels.
	Posts    []ProjectPost      `json:"posts"`
	Channels []messages.Channel `json:"channels"`
}

// ProjectSnapshot takes the cursor first, then reads the project: a change
// committed in between is pulled again, never missed.
func (s *Service) ProjectSnapshot(ctx context.Context, personID, ws, project string) (Snapshot, error) {
	if err := s.cfg.Auth.Require(ctx, personID, ws, teamauth.Read); err != nil {
		return Snapshot{}, err
	}
	now, err := s.now(ctx)
	if err != nil {
		return Snapshot{}, err
	}
	p, err := s.project(ctx, ws, project)
	if err != nil {
		return Snapshot{}, err
	}
	infos, err := s.cfg.Notes.ListNotes(ctx, ws, project)
	if err != nil {
		return Snapshot{}, fmt.Errorf("listing the project's notes: %w", err)
	}
	out := Snapshot{Cursor: now.String(), Project: p, Notes: make([]notes.Note, 0, len(infos))}
	for _, in := range infos {
		n, err := s.cfg.Notes.GetNote(ctx, in.ID)
		if errors.Is(err, notes.ErrNotFound) {
			continue
		}
		if err != nil {
			return Snapshot{}, fmt.Errorf("reading note %s: %w", in.ID, err)
		}
		out.Notes = append(out.Notes, n)
	}
	if out.KnowledgeBases, out.Articles, err = s.projectKnowledge(ctx, ws, project); err != nil {
		return Snapshot{}, err
	}
	if out.RecordChannels, out.Records, err = s.projectRecords(ctx, ws, project); err != nil {
		return Snapshot{}, err
	}
	if out.Channels, err = s.projectChannels(ctx, ws, project); err != nil {
		return Snapshot{}, err
	}
	if out.Posts, err = s.projectPosts(ctx, ws, project); err != nil {
		return Snapshot{}, err
	}
	return out, nil
}

func (s *Service) project(ctx context.Context, ws, id string) (notes.Project, error) {
	p, err := s.cfg.Notes.GetProject(ctx, id)
	if errors.Is(err, notes.ErrNotFound) || (err == nil && p.Workspace != ws) {
		return p, teamauth.Refuse(http.StatusNotFound, "no project %q in this workspace: pick one of the workspace's projects", id)
	}
	if err != nil {
		return p, fmt.Errorf("reading the project: %w", err)
	}
	return p, nil
}

// NewProject is a desktop's project moving to Synced, under its own id.
type NewProject struct {
	ID   string `json:"project_id"`
	Name string `json:"name"`
}

// CreateProject makes a desktop's project a project of the workspace,
// keeping the desktop's id; sent again, it answers the project.
func (s *Service) CreateProject(ctx context.Context, personID, ws string, in NewProject) (notes.Project, error) {
	if err := s.cfg.Auth.Require(ctx, personID, ws, teamauth.Write); err != nil {
		return notes.Project{}, err
	}
	if !goodID(in.ID, "proj") {
		return notes.Project{}, badInput("project_id is the desktop's id of the project (proj-…)")
	}
	in.Name = strings.TrimSpace(in.Name)
	if p, err := s.cfg.Notes.GetProject(ctx, in.ID); err == nil {
		if p.Workspace != ws {
			return p, teamauth.Refuse(http.StatusConflict, "project %s belongs to another workspace", in.ID)
		}
		return p, nil
	}
	if err := teamweb.EnsureWorkspace(ctx, s.cfg.Auth, s.cfg.Notes, personID, ws); err != nil {
		return notes.Project{}, err
	}
	p, err := s.cfg.Notes.CreateProject(ctx, ws, in.ID, in.Name)
	if errors.Is(err, notes.ErrInvalid) {
		return p, badInput("%v", err)
	}
	if err != nil {
		if p, gerr := s.cfg.Notes.GetProject(ctx, in.ID); gerr == nil && p.Workspace == ws {
			return p, nil // a resend raced the first
		}
		return p, fmt.Errorf("creating the project: %w", err)
	}
	return p, nil
}

func (s *Service) snapshot(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	return s.ProjectSnapshot(r.Context(), p.ID, r.PathValue("ws"), r.PathValue("project"))
}

func (s *Service) createProject(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	var in NewProject
	if err := teamauth.ReadJSON(r, &in); err != nil {
		return nil, err
	}
	return s.CreateProject(r.Context(), p.ID, r.PathValue("ws"), in)
}

func (s *Service) listProjects(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	ws := r.PathValue("ws")
	if err := s.cfg.Auth.Require(r.Context(), p.ID, ws, teamauth.Read); err != nil {
		return nil, err
	}
	ps, err := s.cfg.Notes.ListProjects(r.Context(), ws)
	if ps == nil {
		ps = []notes.Project{}
	}
	return ps, err
}
