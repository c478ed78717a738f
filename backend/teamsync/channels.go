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

// Every channel of a synced project travels, not only its discussion: a
// channel a desktop makes goes up under the desktop's id and comes down
// to the others as a "channel" change; its posts travel like the
// discussion's (appended, each desktop post once). Private channels
// never leave their owner's desktop.

// NewProjectChannel is a channel a desktop made in a synced project.
type NewProjectChannel struct {
	ID      string `json:"channel_id"`
	Project string `json:"project_id"`
	Name    string `json:"name"`
}

// goodChannelID is a channel id a desktop made (ch_…, one plain word).
func goodChannelID(id string) bool {
	rest, ok := strings.CutPrefix(id, "ch_")
	return ok && rest != "" && goodID("ch-"+rest, "ch")
}

// CreateChannel stores a desktop's channel under its id; sent again, it
// answers the channel as it is.
func (s *Service) CreateChannel(ctx context.Context, personID, ws string, in NewProjectChannel) (messages.Channel, error) {
	if err := s.cfg.Auth.Require(ctx, personID, ws, teamauth.Write); err != nil {
		return messages.Channel{}, err
	}
	if s.cfg.Messages == nil {
		return messages.Channel{}, teamauth.Refuse(http.StatusServiceUnavailable, "this server keeps no channels")
	}
	if !goodChannelID(in.ID) {
		return messages.Channel{}, badInput("channel_id is the desktop's id of the channel (ch_…)")
	}
	if _, err := s.project(ctx, ws, in.Project); err != nil {
		return messages.Channel{}, err
	}
	if have, err := s.cfg.Messages.Channel(ctx, in.ID); err == nil {
		if have.Workspace != ws || have.Project != in.Project || have.Private {
			return have, teamauth.Refuse(http.StatusConflict, "channel %s already exists elsewhere", in.ID)
		}
		return have, nil
	}
	ch, err := s.cfg.Messages.CreateChannel(ctx, messages.NewChannel{ID: in.ID, Workspace: ws, Project: in.Project, Name: in.Name})
	if errors.Is(err, messages.ErrInvalid) {
		return ch, badInput("%v", err)
	}
	if err != nil {
		if have, gerr := s.cfg.Messages.Channel(ctx, in.ID); gerr == nil && have.Workspace == ws {
			return have, nil // a resend raced the first
		}
		return ch, fmt.Errorf("creating the channel: %w", err)
	}
	return ch, nil
}

func (s *Service) createChannel(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	var in NewProjectChannel
	if err := teamauth.ReadJSON(r, &in); err != nil {
		return nil, err
	}
	return s.CreateChannel(r.Context(), p.ID, r.PathValue("ws"), in)
}

// postChannel is the channel a desktop's post goes to: the one it names,
// if it is a shared channel of the project, or the project's discussion.
func (s *Service) postChannel(ctx context.Context, ws string, in NewPost) (messages.Channel, error) {
	if in.Channel == "" {
		ch, err := s.cfg.Messages.Discussion(ctx, ws, in.Project)
		if err != nil {
			return ch, fmt.Errorf("finding the project's discussion channel: %w", err)
		}
		return ch, nil
	}
	ch, err := s.cfg.Messages.Channel(ctx, in.Channel)
	if errors.Is(err, messages.ErrNotFound) || (err == nil && (ch.Workspace != ws || ch.Project != in.Project || ch.Private)) {
		return ch, teamauth.Refuse(http.StatusNotFound, "no channel %q in this project: is it still shared?", in.Channel)
	}
	if err != nil {
		return ch, fmt.Errorf("reading the channel: %w", err)
	}
	return ch, nil
}

// fillChannel adds a "channel" change's channel to f.
func (s *Service) fillChannel(ctx context.Context, ws string, c Change, f *Feed) error {
	if s.cfg.Messages == nil {
		return nil
	}
	ch, err := s.cfg.Messages.Channel(ctx, c.ID)
	if errors.Is(err, messages.ErrNotFound) || (err == nil && (ch.Workspace != ws || ch.Private)) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading channel %s: %w", c.ID, err)
	}
	f.Channels = append(f.Channels, ch)
	return nil
}

// projectChannels is a project's shared channels other than its
// discussion.
func (s *Service) projectChannels(ctx context.Context, ws, project string) ([]messages.Channel, error) {
	out := []messages.Channel{}
	if s.cfg.Messages == nil {
		return out, nil
	}
	all, err := s.cfg.Messages.ListChannels(ctx, ws, project)
	if err != nil {
		return nil, err
	}
	for _, ch := range all {
		if !ch.Private && !ch.Discussion && ch.Project == project {
			out = append(out, ch)
		}
	}
	return out, nil
}
