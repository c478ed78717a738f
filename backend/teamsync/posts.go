package teamsync

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/teamauth"
)

// A synced project's discussion channel travels too: posts are appended
// (no version to race on), each numbered as a "post" change; a desktop's
// post carries its own id as the idempotency key, so a resend is one post.

// ProjectPost is a post of a project's discussion channel.
type ProjectPost struct {
	messages.Message
	Project string `json:"project_id"`
	// Discussion says the post is in the project's discussion channel
	// (each desktop has its own such channel, found by project); any other
	// channel has the same id everywhere.
	Discussion bool `json:"discussion"`
}

// NewPost is a post a desktop's person wrote in a synced project's
// discussion channel (ID: the desktop's id of it).
type NewPost struct {
	ID      string `json:"post_id"`
	Project string `json:"project_id"`
	Text    string `json:"text"`
	// Channel is the channel's id; "" for the project's discussion.
	Channel string `json:"channel_id,omitempty"`
}

// snapshotPosts is how many of the newest posts a snapshot carries.
const snapshotPosts = messages.MaxListLimit

// CreatePost posts a desktop's post as its person.
func (s *Service) CreatePost(ctx context.Context, p teamauth.Person, ws string, in NewPost) (ProjectPost, error) {
	if err := s.cfg.Auth.Require(ctx, p.ID, ws, teamauth.Write); err != nil {
		return ProjectPost{}, err
	}
	if s.cfg.Messages == nil {
		return ProjectPost{}, teamauth.Refuse(http.StatusServiceUnavailable, "this server keeps no discussion channels")
	}
	if in.ID == "" || len(in.ID) > 100 {
		return ProjectPost{}, badInput("post_id is the desktop's id of the post")
	}
	if _, err := s.project(ctx, ws, in.Project); err != nil {
		return ProjectPost{}, err
	}
	ch, err := s.postChannel(ctx, ws, in)
	if err != nil {
		return ProjectPost{}, err
	}
	name := p.Name
	if name == "" {
		name = p.Email
	}
	m, _, err := s.cfg.Messages.PostMessage(ctx, messages.Post{Channel: ch.ID, AuthorKind: messages.AuthorPerson, Author: p.ID,
		AuthorName: name, Text: in.Text, Key: "desktop:" + in.ID})
	if errors.Is(err, messages.ErrInvalid) || errors.Is(err, messages.ErrKeyReused) {
		return ProjectPost{}, badInput("%v", err)
	}
	if err != nil {
		return ProjectPost{}, fmt.Errorf("posting: %w", err)
	}
	return ProjectPost{Message: m, Project: in.Project, Discussion: ch.Discussion}, nil
}

func (s *Service) createPost(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	var in NewPost
	if err := teamauth.ReadJSON(r, &in); err != nil {
		return nil, err
	}
	return s.CreatePost(r.Context(), p, r.PathValue("ws"), in)
}

// fillPost adds a "post" change's post to f.
func (s *Service) fillPost(ctx context.Context, ws string, c Change, f *Feed) error {
	if s.cfg.Messages == nil {
		return nil
	}
	chID, id, _ := strings.Cut(c.ID, "/")
	ch, err := s.cfg.Messages.Channel(ctx, chID)
	if errors.Is(err, messages.ErrNotFound) || (err == nil && (ch.Workspace != ws || ch.Private)) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading channel %s: %w", chID, err)
	}
	m, err := s.cfg.Messages.Message(ctx, id)
	if errors.Is(err, messages.ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading post %s: %w", id, err)
	}
	f.Posts = append(f.Posts, ProjectPost{Message: m, Project: c.Project, Discussion: ch.Discussion})
	return nil
}

// projectPosts is the newest posts of a project's discussion channel and
// of its other shared channels.
func (s *Service) projectPosts(ctx context.Context, ws, project string) ([]ProjectPost, error) {
	out := []ProjectPost{}
	if s.cfg.Messages == nil {
		return out, nil
	}
	ch, err := s.cfg.Messages.Discussion(ctx, ws, project)
	if errors.Is(err, messages.ErrNotFound) {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("finding the project's discussion channel: %w", err)
	}
	chs, err := s.projectChannels(ctx, ws, project)
	if err != nil {
		return nil, err
	}
	for _, c := range append([]messages.Channel{ch}, chs...) {
		ms, err := s.cfg.Messages.ListMessages(ctx, c.ID, 0, snapshotPosts)
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			out = append(out, ProjectPost{Message: m, Project: project, Discussion: c.Discussion})
		}
	}
	return out, nil
}
