package teamclient

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/notes"
)

// snapshot is teamsync.Snapshot as the desktop reads it.
type snapshot struct {
	Cursor         string                `json:"cursor"`
	Project        notes.Project         `json:"project"`
	Notes          []notes.Note          `json:"notes"`
	KnowledgeBases []notes.KnowledgeBase `json:"knowledge_bases"`
	Articles       []notes.ArticleDoc    `json:"articles"`
	RecordChannels []notes.RecordBoard   `json:"record_channels"`
	Records        []notes.RecordItem    `json:"records"`
	Posts          []serverPost          `json:"posts"`
	Channels       []messages.Channel    `json:"channels"`
}

// JoinProject starts syncing a project a teammate shares in team
// workspace ws: it comes to this desktop under the same ids, in a local
// workspace named like the team's.
func (r *Replica) JoinProject(ctx context.Context, ws, project string) error {
	r.pass.Lock()
	defer r.pass.Unlock()
	var s snapshot
	if _, err := r.c.Call(ctx, http.MethodGet, "/api/sync/"+url.PathEscape(ws)+"/projects/"+url.PathEscape(project), nil, &s); err != nil {
		return err
	}
	if err := r.localWorkspace(ctx, ws); err != nil {
		return err
	}
	if _, err := r.notes.GetProject(ctx, project); errors.Is(err, notes.ErrNotFound) {
		if _, err := r.notes.CreateProject(ctx, ws, project, s.Project.Name); err != nil {
			return fmt.Errorf("making the project here: %w", err)
		}
	} else if err != nil {
		return err
	}
	if err := r.start(ctx, project, ws, ws, s.Cursor); err != nil {
		return err
	}
	for _, n := range s.Notes {
		if err := r.take(ctx, ws, n, nil); err != nil {
			return err
		}
	}
	for _, kb := range s.KnowledgeBases {
		if err := r.takeKB(ctx, ws, kb); err != nil {
			return err
		}
	}
	for _, a := range s.Articles {
		if err := r.pullArticle(ctx, a); err != nil {
			return err
		}
	}
	if err := r.pullRecords(ctx, ws, s.RecordChannels, s.Records); err != nil {
		return err
	}
	if err := r.pullChannels(ctx, ws, s.Channels); err != nil {
		return err
	}
	return r.pullPosts(ctx, ws, s.Posts)
}

// ShareProject moves a Local-only project of this desktop to Synced in
// team workspace ws: the server gets the project under its id and every
// Note in it (sent from the outbox). Offline, the move itself waits in the
// app's database (queued true) and happens when the server is back, even
// after a restart; CancelShare drops it. Preview lists what will go up.
func (r *Replica) ShareProject(ctx context.Context, ws, project string) (queued bool, err error) {
	r.pass.Lock()
	defer r.pass.Unlock()
	p, err := r.notes.GetProject(ctx, project)
	if err != nil {
		return false, fmt.Errorf("reading the project: %w", err)
	}
	if s, err := r.projectOf(ctx, project); err != nil || s.workspace != "" {
		if err == nil {
			err = fmt.Errorf("%s is already synced", p.Name)
		}
		return false, err
	}
	if ws == "" {
		return false, errors.New("pick the team workspace the project goes to")
	}
	err = r.share(ctx, ws, p)
	if !IsUnreachable(err) {
		return false, err
	}
	if _, err := r.db.ExecContext(ctx, `INSERT INTO team_sync_shares (project_id, workspace_id, asked_at) VALUES (?, ?, ?)
		ON CONFLICT (project_id) DO UPDATE SET workspace_id = excluded.workspace_id, asked_at = excluded.asked_at, problem = ''`,
		project, ws, time.Now().UnixMilli()); err != nil {
		return false, fmt.Errorf("keeping the move to Synced for when the server is back: %w", err)
	}
	return true, nil
}

// share does the move: the project on the server, then its Notes queued.
func (r *Replica) share(ctx context.Context, ws string, p notes.Project) error {
	var made notes.Project
	if _, err := r.c.Call(ctx, http.MethodPost, "/api/sync/"+url.PathEscape(ws)+"/projects",
		map[string]string{"project_id": p.ID, "name": p.Name}, &made); err != nil {
		return err
	}
	var s snapshot
	if _, err := r.c.Call(ctx, http.MethodGet, "/api/sync/"+url.PathEscape(ws)+"/projects/"+url.PathEscape(p.ID), nil, &s); err != nil {
		return err
	}
	if err := r.start(ctx, p.ID, ws, p.Workspace, s.Cursor); err != nil {
		return err
	}
	infos, err := r.notes.ListNotes(ctx, p.Workspace, p.ID)
	if err != nil {
		return err
	}
	for _, in := range infos {
		if err := r.queueEdit(ctx, in.ID); err != nil {
			return err
		}
	}
	r.poke()
	return nil
}

// CancelShare drops a move to Synced still waiting for the server: the
// project stays Local-only.
func (r *Replica) CancelShare(ctx context.Context, project string) error {
	res, err := r.db.ExecContext(ctx, `DELETE FROM team_sync_shares WHERE project_id = ?`, project)
	if err != nil {
		return fmt.Errorf("cancelling the move to Synced: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errors.New("this project is not waiting to move to Synced (it may have moved already)")
	}
	return nil
}

// sharesOwed carries out the moves to Synced that waited for the server.
// A refusal stays beside the project for the person to read and cancel.
func (r *Replica) sharesOwed(ctx context.Context) error {
	rows, err := r.db.QueryContext(ctx, `SELECT project_id, workspace_id FROM team_sync_shares WHERE problem = '' ORDER BY asked_at`)
	if err != nil {
		return fmt.Errorf("reading the waiting moves to Synced: %w", err)
	}
	type owed struct{ project, ws string }
	var all []owed
	for rows.Next() {
		var o owed
		if err := rows.Scan(&o.project, &o.ws); err != nil {
			rows.Close()
			return err
		}
		all = append(all, o)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, o := range all {
		p, err := r.notes.GetProject(ctx, o.project)
		if errors.Is(err, notes.ErrNotFound) {
			_, err = r.db.ExecContext(ctx, `DELETE FROM team_sync_shares WHERE project_id = ?`, o.project)
			if err != nil {
				return err
			}
			continue // deleted here meanwhile
		}
		if err != nil {
			return err
		}
		err = r.share(ctx, o.ws, p)
		var refused *APIError
		if errors.As(err, &refused) {
			_, err = r.db.ExecContext(ctx, `UPDATE team_sync_shares SET problem = ? WHERE project_id = ?`, refused.Message, o.project)
			if err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return err
		}
		if _, err := r.db.ExecContext(ctx, `DELETE FROM team_sync_shares WHERE project_id = ?`, o.project); err != nil {
			return err
		}
	}
	return nil
}

// Preview lists the Notes ShareProject would send, by title, and its
// knowledge bases.
func (r *Replica) Preview(ctx context.Context, project string) ([]string, error) {
	p, err := r.notes.GetProject(ctx, project)
	if err != nil {
		return nil, err
	}
	infos, err := r.notes.ListNotes(ctx, p.Workspace, project)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(infos))
	for _, in := range infos {
		out = append(out, in.Title)
	}
	kbs, err := r.notes.ListKnowledgeBases(ctx, p.Workspace)
	if err != nil {
		return nil, err
	}
	for _, kb := range kbs {
		if kb.Project != project {
			continue
		}
		arts, err := r.notes.ListArticles(ctx, kb.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, fmt.Sprintf("Knowledge base %s (%d articles)", kb.Name, len(arts)))
	}
	chs, err := r.notes.ListRecordChannels(ctx, p.Workspace)
	if err != nil {
		return nil, err
	}
	for _, ch := range chs {
		if ch.Project != project {
			continue
		}
		items, err := r.notes.ListRecords(ctx, ch.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, fmt.Sprintf("Records %s (%d items)", ch.Name, len(items)))
	}
	return out, nil
}

// start records project as synced; a workspace seen for the first time
// starts pulling after cursor.
func (r *Replica) start(ctx context.Context, project, ws, local, cursor string) error {
	if _, err := r.db.ExecContext(ctx, `INSERT INTO team_sync_projects (project_id, workspace_id, local_workspace) VALUES (?, ?, ?)
		ON CONFLICT (project_id) DO UPDATE SET workspace_id = excluded.workspace_id, local_workspace = excluded.local_workspace`, project, ws, local); err != nil {
		return fmt.Errorf("recording the synced project: %w", err)
	}
	if _, known, err := r.cursor(ctx, ws); err != nil || known {
		return err
	}
	return r.setCursor(ctx, ws, cursor)
}

// localWorkspace makes the team workspace's local twin (same id).
func (r *Replica) localWorkspace(ctx context.Context, ws string) error {
	all, err := r.notes.ListWorkspaces(ctx)
	if err != nil {
		return err
	}
	for _, w := range all {
		if w.ID == ws {
			return nil
		}
	}
	name := "Team"
	if st := r.c.Status(ctx); st.State == Connected {
		for _, w := range st.Workspaces {
			if w.ID == ws {
				name = w.Name
			}
		}
	}
	_, err = r.notes.CreateWorkspace(ctx, ws, name)
	return err
}

// retryOffline is how soon a failed sync pass is tried again.
const retryOffline = 3 * time.Second

// Run syncs until ctx ends: at once, after every local edit, whenever the
// server announces a change of a synced workspace, and every half minute.
func (r *Replica) Run(ctx context.Context) {
	go r.listen(ctx)
	go r.watchKnowledge(ctx)
	failing := false
	for {
		// After a failure (most often: offline) the next try comes sooner,
		// so what waits goes up soon after the server is back.
		next := 30 * time.Second
		err := r.Sync(ctx)
		failed := err != nil && ctx.Err() == nil && !errors.Is(err, errNotJoined)
		if failed {
			r.log.Info("syncing with the team server", "error", err.Error())
			next = retryOffline
		}
		if failed != failing {
			// The header follows at once (offline, connected again), not
			// at the status check's next minute.
			sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
			r.c.Status(sctx)
			cancel()
			failing = failed
		}
		t := time.NewTimer(next)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-r.wake:
		case <-t.C:
		}
		t.Stop()
	}
}

// listen holds the server's event stream of each synced workspace open and
// wakes Run on every announced change; a dropped stream is opened again.
func (r *Replica) listen(ctx context.Context) {
	open := map[string]context.CancelFunc{}
	for {
		wss, _ := r.workspaces(ctx)
		for _, ws := range wss {
			if open[ws] == nil {
				sctx, cancel := context.WithCancel(ctx)
				open[ws] = cancel
				go func() {
					for sctx.Err() == nil {
						if err := r.c.stream(sctx, "/api/sync/"+url.PathEscape(ws)+"/events", r.poke); err != nil && sctx.Err() == nil {
							// A dropped stream is often a lost network: a
							// sync pass now tells (and the header follows).
							r.poke()
							select {
							case <-sctx.Done():
							case <-time.After(2 * time.Second):
							}
						}
					}
				}()
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(5 * time.Second):
		}
	}
}

// stream reads a server-sent event stream of the desktop API, calling
// onEvent for each event, until it ends or fails.
func (c *Client) stream(ctx context.Context, path string, onEvent func()) error {
	cfg, err := c.loadConfig()
	if err != nil {
		return err
	}
	access, err := c.accessToken(ctx, cfg, false)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(cfg.Server, "/")+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+access)
	req.Header.Set("Accept", "text/event-stream")
	// The client's own timeout would cut a stream that is meant to stay open.
	resp, err := (&http.Client{Transport: c.o.HTTP.Transport}).Do(req)
	if err != nil {
		return unreachable(cfg.Server, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusUnauthorized {
		_, _ = c.accessToken(ctx, cfg, true)
		return errors.New("the stream needs a new access token")
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("the event stream answered %s", resp.Status)
	}
	// What changed while no stream was open was announced to nobody: one
	// pass now catches up before the stream's own news.
	onEvent()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "data:") {
			onEvent()
		}
	}
	return sc.Err()
}
