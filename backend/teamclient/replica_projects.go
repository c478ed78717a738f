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

	"github.com/osfoundry/desktop/backend/notes"
)

// snapshot is teamsync.Snapshot as the desktop reads it.
type snapshot struct {
	Cursor  string        `json:"cursor"`
	Project notes.Project `json:"project"`
	Notes   []notes.Note  `json:"notes"`
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
		if err := r.take(ctx, ws, n); err != nil {
			return err
		}
	}
	return nil
}

// ShareProject moves a Local-only project of this desktop to Synced in
// team workspace ws: the server gets the project under its id and every
// Note in it (sent from the outbox, so offline it goes when the server is
// back). Preview lists what will go up first.
func (r *Replica) ShareProject(ctx context.Context, ws, project string) error {
	r.pass.Lock()
	defer r.pass.Unlock()
	p, err := r.notes.GetProject(ctx, project)
	if err != nil {
		return fmt.Errorf("reading the project: %w", err)
	}
	if s, err := r.projectOf(ctx, project); err != nil || s.workspace != "" {
		if err == nil {
			err = fmt.Errorf("%s is already synced", p.Name)
		}
		return err
	}
	var made notes.Project
	if _, err := r.c.Call(ctx, http.MethodPost, "/api/sync/"+url.PathEscape(ws)+"/projects",
		map[string]string{"project_id": project, "name": p.Name}, &made); err != nil {
		return err
	}
	var s snapshot
	if _, err := r.c.Call(ctx, http.MethodGet, "/api/sync/"+url.PathEscape(ws)+"/projects/"+url.PathEscape(project), nil, &s); err != nil {
		return err
	}
	if err := r.start(ctx, project, ws, p.Workspace, s.Cursor); err != nil {
		return err
	}
	infos, err := r.notes.ListNotes(ctx, p.Workspace, project)
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

// Preview lists the Notes ShareProject would send, by title.
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

// Run syncs until ctx ends: at once, after every local edit, whenever the
// server announces a change of a synced workspace, and every half minute.
func (r *Replica) Run(ctx context.Context) {
	go r.listen(ctx)
	t := time.NewTicker(30 * time.Second)
	defer t.Stop()
	for {
		if err := r.Sync(ctx); err != nil && ctx.Err() == nil && !errors.Is(err, errNotJoined) {
			r.log.Info("syncing with the team server", "error", err.Error())
		}
		select {
		case <-ctx.Done():
			return
		case <-r.wake:
		case <-t.C:
		}
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
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "data:") {
			onEvent()
		}
	}
	return sc.Err()
}
