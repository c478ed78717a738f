package teamclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"

	"github.com/osfoundry/desktop/backend/notes"
)

// ProjectState is one project on Settings → Team.
type ProjectState struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Workspace string `json:"workspace"` // the team workspace ("" for Local-only)
	// Pending is how many of its edits wait for the server; Problems are
	// the server's refusals of some of them (the text stays here).
	Pending  int      `json:"pending"`
	Problems []string `json:"problems"`
}

// Projects is what Settings → Team lists: this desktop's Synced and
// Local-only projects, and the team's projects not synced here yet.
type Projects struct {
	Synced    []ProjectState `json:"synced"`
	LocalOnly []ProjectState `json:"localOnly"`
	// Waiting were moved to Synced while the server could not be reached:
	// they move when it is back (Workspace: where to; Problems: a refusal).
	Waiting []ProjectState `json:"waiting"`
	// Shared are the team workspaces' projects this desktop does not sync
	// (empty while offline).
	Shared []ProjectState `json:"shared"`
	// Offline says why Shared is empty, when it is because of the server.
	Offline string `json:"offline"`
}

// Projects lists the projects by how they sync.
func (r *Replica) Projects(ctx context.Context) (Projects, error) {
	out := Projects{Synced: []ProjectState{}, LocalOnly: []ProjectState{}, Waiting: []ProjectState{}, Shared: []ProjectState{}}
	waiting, err := r.waitingShares(ctx)
	if err != nil {
		return out, err
	}
	wss, err := r.notes.ListWorkspaces(ctx)
	if err != nil {
		return out, err
	}
	have := map[string]bool{}
	for _, w := range wss {
		ps, err := r.notes.ListProjects(ctx, w.ID)
		if err != nil {
			return out, err
		}
		for _, p := range ps {
			have[p.ID] = true
			s, err := r.projectOf(ctx, p.ID)
			if err != nil {
				return out, err
			}
			st := ProjectState{ID: p.ID, Name: p.Name, Workspace: s.workspace, Problems: []string{}}
			if w, ok := waiting[p.ID]; ok && s.workspace == "" {
				st.Workspace = w.ws
				if w.problem != "" {
					st.Problems = append(st.Problems, w.problem)
				}
				out.Waiting = append(out.Waiting, st)
				continue
			}
			if s.workspace == "" {
				out.LocalOnly = append(out.LocalOnly, st)
				continue
			}
			if err := r.outboxOf(ctx, &st); err != nil {
				return out, err
			}
			if err := r.knowledgeWaiting(ctx, &st); err != nil {
				return out, err
			}
			n, err := r.deletesPending(ctx, p.ID)
			if err != nil {
				return out, err
			}
			st.Pending += n
			out.Synced = append(out.Synced, st)
		}
	}
	status := r.c.Status(ctx)
	if status.State != Connected {
		out.Offline = status.Message
		return out, nil
	}
	for _, w := range status.Workspaces {
		var ps []notes.Project
		if _, err := r.c.Call(ctx, http.MethodGet, "/api/sync/"+url.PathEscape(w.ID)+"/projects", nil, &ps); err != nil {
			out.Offline = err.Error()
			return out, nil
		}
		for _, p := range ps {
			if !have[p.ID] {
				out.Shared = append(out.Shared, ProjectState{ID: p.ID, Name: p.Name, Workspace: w.ID, Problems: []string{}})
			}
		}
	}
	return out, nil
}

func (r *Replica) outboxOf(ctx context.Context, st *ProjectState) error {
	rows, err := r.db.QueryContext(ctx, `SELECT problem FROM team_sync_outbox WHERE project_id = ?`, st.ID)
	if err != nil {
		return fmt.Errorf("reading the outbox: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var problem string
		if err := rows.Scan(&problem); err != nil {
			return err
		}
		st.Pending++
		if problem != "" && !slices.Contains(st.Problems, problem) {
			st.Problems = append(st.Problems, problem)
		}
	}
	return rows.Err()
}

// StopSync makes a synced project Local-only again: this desktop keeps
// its copy as it is now and sends nothing more; nothing is removed on the
// server. Edits still waiting are dropped only when discard is true.
func (r *Replica) StopSync(ctx context.Context, project string, discard bool) error {
	r.pass.Lock()
	defer r.pass.Unlock()
	s, err := r.projectOf(ctx, project)
	if err != nil {
		return err
	}
	if s.workspace == "" {
		return errors.New("this project is already Local-only")
	}
	st := ProjectState{ID: project}
	if err := r.outboxOf(ctx, &st); err != nil {
		return err
	}
	if st.Pending > 0 && !discard {
		return fmt.Errorf("%d edits of this project have not reached the team server yet: sync first, or make it Local-only anyway to keep them only here", st.Pending)
	}
	if _, err := r.db.ExecContext(ctx, `DELETE FROM team_sync_outbox WHERE project_id = ?`, project); err != nil {
		return err
	}
	// Posts not sent yet stay in the discussion here only.
	if _, err := r.db.ExecContext(ctx, `DELETE FROM team_sync_posts_out WHERE project_id = ?`, project); err != nil {
		return err
	}
	_, err = r.db.ExecContext(ctx, `DELETE FROM team_sync_projects WHERE project_id = ?`, project)
	return err
}

type waitingShare struct{ ws, problem string }

func (r *Replica) waitingShares(ctx context.Context) (map[string]waitingShare, error) {
	rows, err := r.db.QueryContext(ctx, `SELECT project_id, workspace_id, problem FROM team_sync_shares`)
	if err != nil {
		return nil, fmt.Errorf("reading the waiting moves to Synced: %w", err)
	}
	defer rows.Close()
	out := map[string]waitingShare{}
	for rows.Next() {
		var id string
		var w waitingShare
		if err := rows.Scan(&id, &w.ws, &w.problem); err != nil {
			return nil, err
		}
		out[id] = w
	}
	return out, rows.Err()
}

// TeamPlaces names, for each Synced project here, the team workspace it is
// synced to: the Notes screen says where a Note is by it, so the desktop
// that moved a project to Synced (which keeps it in its own workspace)
// and a teammate's that synced it (in a workspace named like the team's)
// say the same. Read from this desktop alone, offline too (names as the
// server last gave them).
func (r *Replica) TeamPlaces(ctx context.Context) (map[string]string, error) {
	names := map[string]string{}
	if cfg, err := r.c.loadConfig(); err == nil {
		for _, w := range cfg.Workspaces {
			names[w.ID] = w.Name
		}
	}
	rows, err := r.db.QueryContext(ctx, `SELECT project_id, workspace_id FROM team_sync_projects`)
	if err != nil {
		return nil, fmt.Errorf("reading the synced projects: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var project, ws string
		if err := rows.Scan(&project, &ws); err != nil {
			return nil, fmt.Errorf("reading the synced projects: %w", err)
		}
		if out[project] = names[ws]; out[project] == "" {
			out[project] = "Team"
		}
	}
	return out, rows.Err()
}
