package teamclient

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/store"
)

// TeamRun is a run a teammate or an assistant asked for in a team
// workspace, as the server hands it to this desktop (teamruns.Run).
type TeamRun struct {
	ID        string `json:"run_id"`
	Workspace string `json:"workspace_id"`
	Project   string `json:"project_id"`
	Requester string `json:"requester"`
	Task      string `json:"task"`
	State     string `json:"state"`
	Progress  string `json:"progress"`
	Answer    string `json:"answer"`
	Problem   string `json:"problem"`
}

// RunExec does a team run on this desktop with the app's run engine,
// calling progress as it goes, and returns the answer. ctx ends when the
// run is no longer this desktop's (its lease lapsed, it was cancelled) or
// the app closes.
type RunExec func(ctx context.Context, run TeamRun, progress func(string)) (answer string, err error)

// RunnerComponent is the runner's switch in the app's database.
const RunnerComponent = "team_runner"

var runnerMigrations = []store.Migration{{Version: 1, SQL: `
-- "Run work for the team": off until the person turns it on.
CREATE TABLE team_runner (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	on_ INTEGER NOT NULL
);
`}}

// Runner claims the runs asked for in the person's team workspaces while
// they allowed it (Settings → Team, "Run work for the team", off by
// default), does them with exec, and posts progress and the answer back.
// Its reports renew the run's lease on the server; a desktop that stops
// reporting (closed, killed, offline) lets it lapse and the run reads
// Interrupted there — it is never started again.
type Runner struct {
	c    *Client
	db   *sql.DB
	exec RunExec
	log  *slog.Logger
	poll time.Duration

	mu      sync.Mutex
	running map[string]context.CancelFunc
	replica *Replica // nil: offers to run any project's work
}

// UseReplica makes the runner offer only for the projects this desktop
// syncs: a run of a project it does not have goes to a desktop that has
// it (and with none, the one who asks is told at once).
func (r *Runner) UseReplica(rep *Replica) {
	r.mu.Lock()
	r.replica = rep
	r.mu.Unlock()
}

// NewRunner opens the switch in db.
func NewRunner(ctx context.Context, c *Client, db *sql.DB, exec RunExec, log *slog.Logger) (*Runner, error) {
	if err := store.Migrate(ctx, db, RunnerComponent, runnerMigrations); err != nil {
		return nil, err
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Runner{c: c, db: db, exec: exec, log: log, poll: time.Second, running: map[string]context.CancelFunc{}}, nil
}

// Enabled says whether this desktop runs work for the team.
func (r *Runner) Enabled(ctx context.Context) (bool, error) {
	var on int
	err := r.db.QueryRowContext(ctx, `SELECT on_ FROM team_runner WHERE id = 1`).Scan(&on)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return on == 1, err
}

// SetEnabled turns "Run work for the team" on or off; off stops offering,
// and runs already going here finish.
func (r *Runner) SetEnabled(ctx context.Context, on bool) error {
	v := 0
	if on {
		v = 1
	}
	_, err := r.db.ExecContext(ctx, `INSERT INTO team_runner (id, on_) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET on_ = excluded.on_`, v)
	return err
}

// Run offers to run work while enabled, until ctx ends: it asks each team
// workspace for a queued run every poll and does the ones it gets.
func (r *Runner) Run(ctx context.Context) {
	for {
		if on, err := r.Enabled(ctx); err == nil && on {
			if err := r.offer(ctx); err != nil && ctx.Err() == nil && !errors.Is(err, errNotJoined) {
				r.log.Info("offering to run work for the team", "error", err.Error())
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(r.poll):
		}
	}
}

func (r *Runner) offer(ctx context.Context) error {
	cfg, err := r.c.loadConfig()
	if err != nil {
		return err
	}
	for _, w := range cfg.Workspaces {
		if w.Role == "viewer" {
			continue
		}
		var got struct {
			Run *TeamRun `json:"run"`
		}
		offer := map[string]any{"device": r.c.o.Device}
		r.mu.Lock()
		rep := r.replica
		r.mu.Unlock()
		if rep != nil {
			ps, err := rep.syncedIn(ctx, w.ID)
			if err != nil {
				return err
			}
			offer["projects"] = ps
		}
		if _, err := r.c.Call(ctx, http.MethodPost, "/api/runner/"+url.PathEscape(w.ID)+"/claim", offer, &got); err != nil {
			return err
		}
		if got.Run != nil {
			go r.do(ctx, *got.Run)
		}
	}
	return nil
}

// reportEvery is how often a run's progress goes up (and renews its
// lease, which lasts six seconds on the server).
const reportEvery = 2 * time.Second

// do runs one claimed run and reports it.
func (r *Runner) do(ctx context.Context, run TeamRun) {
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r.mu.Lock()
	r.running[run.ID] = cancel
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.running, run.ID)
		r.mu.Unlock()
	}()
	var pmu sync.Mutex
	progress := "started on " + r.c.o.Device
	report := func(state, answer, problem string) error {
		pmu.Lock()
		p := progress
		pmu.Unlock()
		_, err := r.c.Call(ctx, http.MethodPost, "/api/runner/"+url.PathEscape(run.Workspace)+"/runs/"+url.PathEscape(run.ID),
			map[string]string{"device": r.c.o.Device, "state": state, "progress": p, "answer": answer, "problem": problem}, nil)
		return err
	}
	go func() {
		t := time.NewTicker(reportEvery)
		defer t.Stop()
		for {
			if err := report("running", "", ""); err != nil {
				var refused *APIError
				if errors.As(err, &refused) && refused.Status == http.StatusGone {
					cancel() // no longer ours: stop
					return
				}
			}
			select {
			case <-rctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	answer, err := r.exec(rctx, run, func(p string) {
		pmu.Lock()
		progress = p
		pmu.Unlock()
	})
	if rctx.Err() != nil && ctx.Err() != nil {
		return // the app is closing: the lease lapses and the run reads Interrupted
	}
	state, problem := "done", ""
	if err != nil {
		state, problem = "failed", err.Error()
	}
	if err := report(state, answer, problem); err != nil {
		r.log.Warn("reporting a team run", "run", run.ID, "error", fmt.Sprint(err))
	}
}

// syncedIn lists the projects this desktop syncs in team workspace ws
// (never nil).
func (r *Replica) syncedIn(ctx context.Context, ws string) ([]string, error) {
	rows, err := r.db.QueryContext(ctx, `SELECT project_id FROM team_sync_projects WHERE workspace_id = ? ORDER BY project_id`, ws)
	if err != nil {
		return nil, fmt.Errorf("reading the synced projects: %w", err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// LocalWorkspace is where a synced project lives on this desktop: a team
// run works there. A project this desktop does not sync is refused.
func (r *Replica) LocalWorkspace(ctx context.Context, project string) (string, error) {
	p, err := r.projectOf(ctx, project)
	if err != nil {
		return "", err
	}
	if p.workspace == "" {
		return "", fmt.Errorf("project %s is not synced on this desktop: sync it in Settings → Team first", project)
	}
	return p.local, nil
}
