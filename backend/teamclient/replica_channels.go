package teamclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/osfoundry/desktop/backend/messages"
)

// Every channel of a synced project travels, not only its discussion: a
// channel made here goes up under its id (found by a scan, so one made
// offline waits for the server), one a teammate made comes down under
// the same id, and posts in either travel like the discussion's. Private
// channels never leave this desktop.

// pushChannels sends the shared channels of synced projects the server
// does not have yet.
func (r *Replica) pushChannels(ctx context.Context) error {
	if r.msgs == nil {
		return nil
	}
	rows, err := r.db.QueryContext(ctx, `SELECT project_id, workspace_id, local_workspace FROM team_sync_projects ORDER BY project_id`)
	if err != nil {
		return fmt.Errorf("reading the synced projects: %w", err)
	}
	type proj struct{ id, ws, local string }
	var ps []proj
	for rows.Next() {
		var p proj
		if err := rows.Scan(&p.id, &p.ws, &p.local); err != nil {
			rows.Close()
			return err
		}
		ps = append(ps, p)
	}
	rows.Close()
	for _, p := range ps {
		chs, err := r.msgs.ListChannels(ctx, p.local, p.id)
		if err != nil {
			return err
		}
		for _, ch := range chs {
			if ch.Private || ch.Discussion || ch.Project != p.id {
				continue
			}
			c, err := r.item(ctx, "mchannel", ch.ID)
			if err != nil {
				return err
			}
			if c.known {
				continue
			}
			var made messages.Channel
			_, err = r.c.Call(ctx, http.MethodPost, "/api/sync/"+url.PathEscape(p.ws)+"/channels",
				map[string]string{"channel_id": ch.ID, "project_id": p.id, "name": ch.Name}, &made)
			var refused *APIError
			if errors.As(err, &refused) {
				if err := r.refuseItem(ctx, "mchannel", ch.ID, p.id, 0, refused.Message); err != nil {
					return err
				}
				continue
			}
			if err != nil {
				return err
			}
			if err := r.rememberItem(ctx, "mchannel", ch.ID, itemCopy{container: p.id, server: 1}); err != nil {
				return err
			}
		}
	}
	return nil
}

// pullChannels makes the shared channels of synced projects here, under
// the server's ids.
func (r *Replica) pullChannels(ctx context.Context, ws string, chs []messages.Channel) error {
	if r.msgs == nil {
		return nil
	}
	for _, ch := range chs {
		p, err := r.projectOf(ctx, ch.Project)
		if err != nil {
			return err
		}
		if p.workspace != ws || ch.Private || ch.Discussion {
			continue
		}
		if _, err := r.msgs.Channel(ctx, ch.ID); errors.Is(err, messages.ErrNotFound) {
			if _, err := r.msgs.CreateChannel(ctx, messages.NewChannel{ID: ch.ID, Workspace: p.local, Project: ch.Project, Name: ch.Name}); err != nil {
				return fmt.Errorf("making channel %s here: %w", ch.Name, err)
			}
		} else if err != nil {
			return err
		}
		if err := r.rememberItem(ctx, "mchannel", ch.ID, itemCopy{container: ch.Project, server: 1}); err != nil {
			return err
		}
	}
	return nil
}
