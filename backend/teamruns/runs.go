package teamruns

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/osfoundry/desktop/backend/teamauth"
)

// Run is a run as the requester and the runner read it.
type Run struct {
	ID           string    `json:"run_id"`
	Workspace    string    `json:"workspace_id"`
	Project      string    `json:"project_id"`
	RequestedBy  string    `json:"requested_by"`
	Requester    string    `json:"requester"`
	Task         string    `json:"task"`
	State        string    `json:"state"` // queued, running, done, failed, interrupted, cancelled
	RunnerDevice string    `json:"runner_device,omitempty"`
	Progress     string    `json:"progress"`
	Answer       string    `json:"answer"`
	Problem      string    `json:"problem"`
	CreatedAt    time.Time `json:"created_at"`
}

const runCols = `id, workspace_id, project_id, requested_by, requester, task, state, runner_device, progress, answer, problem, created_at`

func scanRun(row pgx.Row) (Run, error) {
	var r Run
	err := row.Scan(&r.ID, &r.Workspace, &r.Project, &r.RequestedBy, &r.Requester, &r.Task, &r.State, &r.RunnerDevice,
		&r.Progress, &r.Answer, &r.Problem, &r.CreatedAt)
	return r, err
}

// Request is a run asked for.
type Request struct {
	Project string `json:"project_id"`
	Task    string `json:"task"`
}

// watchArgs is the River job of one run: its queue entry, whose worker
// watches the claim's lease until the run ends.
type watchArgs struct {
	Run string `json:"run_id"`
}

func (watchArgs) Kind() string { return "osfoundry_team_run" }

// InsertOpts: a run is never tried twice.
func (watchArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{MaxAttempts: 1} }

// RequestRun queues a run for the workspace's runners. With no desktop
// offering to run work now, it is refused at once (424, nothing queued).
func (s *Service) RequestRun(ctx context.Context, personID, requester, ws string, in Request) (Run, error) {
	if err := s.cfg.Auth.Require(ctx, personID, ws, teamauth.StartRun); err != nil {
		return Run{}, err
	}
	in.Task = strings.TrimSpace(in.Task)
	if in.Task == "" || len(in.Task) > 20000 || in.Project == "" {
		return Run{}, badInput("project_id and task are required (task: up to 20,000 characters)")
	}
	if s.river == nil {
		return Run{}, teamauth.Refuse(http.StatusServiceUnavailable, "runs are not started on this server yet")
	}
	var known bool
	if err := s.cfg.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM projects WHERE id = $1 AND workspace_id = $2)`, in.Project, ws).Scan(&known); err != nil {
		return Run{}, fmt.Errorf("reading the project: %w", err)
	}
	if !known {
		return Run{}, teamauth.Refuse(http.StatusNotFound, "no project %q in this workspace: runs are for the workspace's (synced) projects", in.Project)
	}
	var online, syncing bool
	if err := s.cfg.Pool.QueryRow(ctx, `SELECT COALESCE(bool_or(true), false), COALESCE(bool_or(projects IS NULL OR $3 = ANY(projects)), false)
		FROM team_runners WHERE workspace_id = $1 AND seen_at > now() - $2::interval`,
		ws, RunnerSeen.String(), in.Project).Scan(&online, &syncing); err != nil {
		return Run{}, fmt.Errorf("looking for runners: %w", err)
	}
	if !online {
		return Run{}, teamauth.Refuse(http.StatusFailedDependency,
			"no desktop runs work for this workspace now: ask a teammate to turn on \"Run work for the team\" in Settings → Team and keep the app open")
	}
	if !syncing {
		return Run{}, teamauth.Refuse(http.StatusFailedDependency,
			"no desktop that runs work for this workspace syncs this project now: ask a teammate who runs work to sync it in Settings → Team")
	}
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	id := "trun-" + hex.EncodeToString(b)
	tx, err := s.cfg.Pool.Begin(ctx)
	if err != nil {
		return Run{}, fmt.Errorf("queueing the run: %w", err)
	}
	defer tx.Rollback(ctx)
	r, err := scanRun(tx.QueryRow(ctx, `INSERT INTO team_runs (id, workspace_id, project_id, requested_by, requester, task, state)
		VALUES ($1, $2, $3, $4, $5, $6, 'queued') RETURNING `+runCols, id, ws, in.Project, personID, requester, in.Task))
	if err != nil {
		return Run{}, fmt.Errorf("queueing the run: %w", err)
	}
	if _, err := s.river.InsertTx(ctx, tx, watchArgs{Run: id}, nil); err != nil {
		return Run{}, fmt.Errorf("queueing the run: %w", err)
	}
	return r, tx.Commit(ctx)
}

// GetRun reads a run of the workspace.
func (s *Service) GetRun(ctx context.Context, personID, ws, id string) (Run, error) {
	if err := s.cfg.Auth.Require(ctx, personID, ws, teamauth.Read); err != nil {
		return Run{}, err
	}
	r, err := scanRun(s.cfg.Pool.QueryRow(ctx, `SELECT `+runCols+` FROM team_runs WHERE id = $1 AND workspace_id = $2`, id, ws))
	if errors.Is(err, pgx.ErrNoRows) {
		return r, teamauth.Refuse(http.StatusNotFound, "no run %q in this workspace", id)
	}
	return r, err
}

// Claim records the desktop as offering to run work, then gives it the
// oldest queued run of the workspace with a lease (none: a nil run).
//
// projects are the projects the desktop syncs: it is given only their
// runs (nil: any project, from a desktop that does not say).
func (s *Service) Claim(ctx context.Context, personID, ws, device string, projects []string) (*Run, error) {
	if err := s.cfg.Auth.Require(ctx, personID, ws, teamauth.Write); err != nil {
		return nil, err
	}
	if device == "" || len(device) > 200 {
		return nil, badInput("device names this computer (up to 200 characters)")
	}
	if len(projects) > 1000 {
		return nil, badInput("projects lists at most 1,000 projects")
	}
	if _, err := s.cfg.Pool.Exec(ctx, `INSERT INTO team_runners (workspace_id, person_id, device, seen_at, projects) VALUES ($1, $2, $3, now(), $4)
		ON CONFLICT (workspace_id, person_id, device) DO UPDATE SET seen_at = now(), projects = excluded.projects`, ws, personID, device, projects); err != nil {
		return nil, fmt.Errorf("recording the runner: %w", err)
	}
	r, err := scanRun(s.cfg.Pool.QueryRow(ctx, `UPDATE team_runs SET state = 'running', runner_person = $2, runner_device = $3,
			lease_until = now() + $4::interval, updated_at = now()
		WHERE id = (SELECT id FROM team_runs WHERE workspace_id = $1 AND state = 'queued'
				AND ($5::text[] IS NULL OR project_id = ANY($5::text[]))
			ORDER BY created_at FOR UPDATE SKIP LOCKED LIMIT 1)
		RETURNING `+runCols, ws, personID, device, Lease.String(), projects))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("claiming a run: %w", err)
	}
	return &r, nil
}

// Report is the runner's news of a run: progress while it works (which
// renews the lease), or its end.
type Report struct {
	Device   string `json:"device"`
	State    string `json:"state"` // running, done, failed
	Progress string `json:"progress"`
	Answer   string `json:"answer"`
	Problem  string `json:"problem"`
}

// ReportRun takes a runner's report. Only the desktop holding the claim
// may report, and only while the run is its: a run whose lease lapsed
// (Interrupted) or that was cancelled is refused (410), so the desktop
// stops.
func (s *Service) ReportRun(ctx context.Context, personID, ws, id string, in Report) (Run, error) {
	if err := s.cfg.Auth.Require(ctx, personID, ws, teamauth.Write); err != nil {
		return Run{}, err
	}
	if in.State != "running" && in.State != "done" && in.State != "failed" {
		return Run{}, badInput("state is running, done or failed")
	}
	r, err := scanRun(s.cfg.Pool.QueryRow(ctx, `UPDATE team_runs SET state = $5, progress = $6, answer = $7, problem = $8,
			lease_until = CASE WHEN $5 = 'running' THEN now() + $9::interval ELSE lease_until END, updated_at = now()
		WHERE id = $1 AND workspace_id = $2 AND runner_person = $3 AND runner_device = $4 AND state = 'running'
		RETURNING `+runCols, id, ws, personID, in.Device, in.State, in.Progress, in.Answer, in.Problem, Lease.String()))
	if errors.Is(err, pgx.ErrNoRows) {
		cur, gerr := s.GetRun(ctx, personID, ws, id)
		if gerr != nil {
			return Run{}, gerr
		}
		return cur, teamauth.Refuse(http.StatusGone, "run %s is %s and no longer this desktop's", id, cur.State)
	}
	if err != nil {
		return Run{}, fmt.Errorf("recording the run's report: %w", err)
	}
	return r, nil
}

func (s *Service) request(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	var in Request
	if err := teamauth.ReadJSON(r, &in); err != nil {
		return nil, err
	}
	name := p.Name
	if name == "" {
		name = p.Email
	}
	return s.RequestRun(r.Context(), p.ID, name, r.PathValue("ws"), in)
}

func (s *Service) get(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	return s.GetRun(r.Context(), p.ID, r.PathValue("ws"), r.PathValue("run"))
}

// claimed answers a claim: the run, or none.
type claimed struct {
	Run *Run `json:"run"`
}

func (s *Service) claim(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	var in struct {
		Device string `json:"device"`
		// Projects are the projects the desktop syncs (absent: any).
		Projects []string `json:"projects"`
	}
	if err := teamauth.ReadJSON(r, &in); err != nil {
		return nil, err
	}
	run, err := s.Claim(r.Context(), p.ID, r.PathValue("ws"), in.Device, in.Projects)
	return claimed{Run: run}, err
}

func (s *Service) report(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	var in Report
	if err := teamauth.ReadJSON(r, &in); err != nil {
		return nil, err
	}
	return s.ReportRun(r.Context(), p.ID, r.PathValue("ws"), r.PathValue("run"), in)
}
