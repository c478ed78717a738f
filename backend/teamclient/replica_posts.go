package teamclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/osfoundry/desktop/backend/messages"
)

// A synced project's discussion channel: the person's posts here wait in
// an outbox and go up in order (each with its own id as the key, so a
// resend is one post); teammates' and assistants' posts come down with
// the project's changes. Posts are appended, never edited, so nothing
// can lose a race.

// teamAuthor marks a post that came from the team server, so it is not
// sent back up.
const teamAuthor = "team:"

// UseMessages gives the replica the app's message channels; without them
// discussion channels stay on this desktop.
func (r *Replica) UseMessages(m *messages.Store) {
	r.msgs = m
	r.unsubPosts = m.OnPost(r.posted)
}

// posted queues the person's post in a synced project's discussion.
func (r *Replica) posted(c messages.Channel, m messages.Message) {
	if c.Private || c.Project == "" || strings.HasPrefix(m.Author, teamAuthor) {
		return
	}
	channel := c.ID
	if c.Discussion {
		channel = "" // every desktop has its own: the server finds it by project
	}
	ctx := context.Background()
	p, err := r.projectOf(ctx, c.Project)
	if err != nil || p.workspace == "" {
		return // Local-only: nothing leaves
	}
	if _, err := r.db.ExecContext(ctx, `INSERT INTO team_sync_posts_out (post_id, workspace, project_id, text, channel_id) VALUES (?, ?, ?, ?, ?)`,
		m.ID, p.workspace, c.Project, m.Text, channel); err != nil {
		r.log.Warn("keeping a post for the team server", "post", m.ID, "error", err.Error())
		return
	}
	r.poke()
}

// serverPost is teamsync.ProjectPost as the desktop reads it.
type serverPost struct {
	messages.Message
	Project    string `json:"project_id"`
	Discussion bool   `json:"discussion"`
}

// pushPosts sends the posts waiting, oldest first.
func (r *Replica) pushPosts(ctx context.Context) error {
	for {
		rows, err := r.db.QueryContext(ctx, `SELECT id, post_id, workspace, project_id, text, channel_id FROM team_sync_posts_out
			WHERE problem = '' ORDER BY id LIMIT 100`)
		if err != nil {
			return fmt.Errorf("reading the posts waiting: %w", err)
		}
		type out struct {
			id                               int64
			post, ws, project, text, channel string
		}
		var all []out
		for rows.Next() {
			var o out
			if err := rows.Scan(&o.id, &o.post, &o.ws, &o.project, &o.text, &o.channel); err != nil {
				rows.Close()
				return err
			}
			all = append(all, o)
		}
		rows.Close()
		if len(all) == 0 {
			return nil
		}
		for _, o := range all {
			var got serverPost
			_, err := r.c.Call(ctx, http.MethodPost, "/api/sync/"+url.PathEscape(o.ws)+"/posts",
				map[string]string{"post_id": o.post, "project_id": o.project, "text": o.text, "channel_id": o.channel}, &got)
			var refused *APIError
			if errors.As(err, &refused) {
				if _, err := r.db.ExecContext(ctx, `UPDATE team_sync_posts_out SET problem = ? WHERE id = ?`, refused.Message, o.id); err != nil {
					return err
				}
				continue
			}
			if err != nil {
				return err
			}
			if _, err := r.db.ExecContext(ctx, `INSERT OR IGNORE INTO team_sync_post_ids (server_id, local_id) VALUES (?, ?)`, got.ID, o.post); err != nil {
				return err
			}
			if _, err := r.db.ExecContext(ctx, `DELETE FROM team_sync_posts_out WHERE id = ?`, o.id); err != nil {
				return err
			}
		}
	}
}

// pullPosts adds the server's posts of synced projects that are not here
// yet to the project's discussion channel here.
func (r *Replica) pullPosts(ctx context.Context, ws string, posts []serverPost) error {
	if r.msgs == nil {
		return nil
	}
	for _, m := range posts {
		p, err := r.projectOf(ctx, m.Project)
		if err != nil {
			return err
		}
		if p.workspace != ws {
			continue
		}
		var known int
		if err := r.db.QueryRowContext(ctx, `SELECT count(*) FROM team_sync_post_ids WHERE server_id = ?`, m.ID).Scan(&known); err != nil {
			return err
		}
		if known > 0 {
			continue // ours coming back, or taken already
		}
		ch, err := r.msgs.ProjectDiscussion(ctx, m.Project)
		if !m.Discussion {
			ch, err = r.msgs.Channel(ctx, m.Channel)
		}
		if errors.Is(err, messages.ErrNotFound) {
			continue // a channel this desktop does not have
		}
		if err != nil {
			return fmt.Errorf("finding the channel of post %s: %w", m.ID, err)
		}
		local, _, err := r.msgs.PostMessage(ctx, messages.Post{Channel: ch.ID, AuthorKind: m.AuthorKind, Author: teamAuthor + m.Author,
			AuthorName: m.AuthorName, Text: m.Text, Key: teamAuthor + m.ID})
		if err != nil {
			return fmt.Errorf("taking in post %s: %w", m.ID, err)
		}
		if _, err := r.db.ExecContext(ctx, `INSERT OR IGNORE INTO team_sync_post_ids (server_id, local_id) VALUES (?, ?)`, m.ID, local.ID); err != nil {
			return err
		}
	}
	return nil
}
