// Package orchestrate runs groups of pipeline runs: a fleet of runs in
// parallel, one run repeated until a condition or a count (a loop), and a
// graph of role steps (in stages for the tools, with ids and dependencies
// for a person). A person starts them from the window
// (OrchestrateBinding) or `osfoundry run --fleet|--loop|--graph`
// (Person); a Worker run from its bridge (spawn_fleet, loop_run,
// graph_run); an outside assistant through the Connected endpoint. A
// Manager keeps each group as a job whose status the starter reads and
// follows (EventChanged), enforces its limits (time, spend, concurrency),
// bounds how many runs go at once, and cancels a job's runs or one child
// (their CLI process groups). A step's run is started through the
// pipeline (Roles: the role's model, prompt and folder) and then followed
// at the run engine itself (Runs: wait, cancel, origin). It never runs a
// CLI itself.
package orchestrate

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/cost"
	"github.com/osfoundry/desktop/backend/pipeline"
	"github.com/osfoundry/desktop/backend/runs"
)

// Roles turns a step into a run: the role's model from Pipeline Roles,
// its prompt, the folder, the Code screen's isolation (*chat.Service).
type Roles interface {
	StartRole(ctx context.Context, t pipeline.RoleTask) (runs.Run, error)
	CheckRoles(ctx context.Context, folder string, roles ...string) error
}

// Runs follows a run once started: the Manager waits for, cancels and
// asks the origin of runs at the run engine itself (*runs.Engine).
type Runs interface {
	WaitRun(ctx context.Context, id string) (runs.Run, error)
	Done(id string) <-chan struct{}
	OriginOf(id string) (runs.Origin, bool)
	Cancel(id string) error
}

var (
	_ Roles = (*pipeline.Service)(nil)
	_ Runs  = (*runs.Engine)(nil)
)

// Limits. A fleet is capped so one tool call cannot fill the machine with
// CLI processes; MaxActive bounds the orchestrated runs going at once
// across every job (the rest wait their turn); MaxJobs bounds the jobs one
// starter may have going.
const (
	MaxFleet      = 4
	MaxActive     = 4
	MaxJobs       = 3
	MaxLoop       = 5
	MaxStages     = 6
	MaxGraphSteps = 12
)

// Job kinds and states.
const (
	KindRun   = "run"
	KindFleet = "fleet"
	KindLoop  = "loop"
	KindGraph = "graph"

	StateWaiting   = "waiting" // a step not started yet
	StateRunning   = "running"
	StateDone      = "done"
	StateFailed    = "failed"
	StateCancelled = "cancelled"
	StateSkipped   = "skipped" // a graph step after a failed stage
	StateStopped   = "stopped" // a loop that reached its maximum without done
)

// Errors callers branch on.
var (
	ErrNoJob  = errors.New("no such job")
	ErrClosed = errors.New("the app is shutting down")
	ErrBusy   = errors.New("too many orchestration jobs are going")
)

// Step is one run of a job: a child of a fleet, a loop iteration or a
// graph step.
type Step struct {
	Stage int    `json:"stage"` // graph stage, loop round or fleet slot (from 1)
	Role  string `json:"role"`
	// ID is the child's id within its job ("1", "2", … or a graph step's
	// own id): what CancelChild takes.
	ID        string   `json:"id,omitempty"`
	Model     string   `json:"model,omitempty"` // "" = the role's assigned model
	Task      string   `json:"task,omitempty"`  // what the person asked of it
	DependsOn []string `json:"dependsOn,omitempty"`
	RunID     string   `json:"runId,omitempty"`
	State     string   `json:"state"`
	// Progress is the run's last progress line while it goes.
	Progress string `json:"progress,omitempty"`
	// CostUSD is what the CLI reported at API prices once the run ended:
	// an estimate (the run is on a subscription), what spend limits count.
	CostUSD float64 `json:"costUsd,omitempty"`
	// Cost is what the screens show (backend/cost's rule over CostUSD).
	Cost      cost.Cost `json:"cost"`
	Answer    string    `json:"answer,omitempty"`
	Error     string    `json:"error,omitempty"`
	StartedAt int64     `json:"startedAt,omitempty"` // unix ms
	EndedAt   int64     `json:"endedAt,omitempty"`   // unix ms
}

// Status is a job as its starter reads it.
type Status struct {
	ID    string `json:"id"`
	Kind  string `json:"kind"`
	State string `json:"state"`
	Steps []Step `json:"steps"`
	// Answer is the job's result: the run's answer, the loop's last
	// answer, the graph's last stage.
	Answer string `json:"answer,omitempty"`
	Error  string `json:"error,omitempty"`
	Note   string `json:"note,omitempty"`
	// Title names a job a person started (the board card's title).
	Title string `json:"title,omitempty"`
	// StartedBy says who started it: "you", "a Worker run", "a connected
	// assistant".
	StartedBy string `json:"startedBy,omitempty"`
	Limits    Limits `json:"limits"`
	// CostUSD adds up the children's reported costs (estimates at API
	// prices; the runs are on a subscription).
	CostUSD float64 `json:"costUsd"`
	// Cost is what the screens show: the children's costs added up.
	Cost      cost.Cost `json:"cost"`
	StartedAt int64     `json:"startedAt,omitempty"` // unix ms
	EndedAt   int64     `json:"endedAt,omitempty"`   // unix ms
}

// Limits bound a job a person started: the wall-clock time and the spend
// (the CLIs' reported cost) of the whole job, and how many of its children
// run at once. Zero means no limit (concurrency: every child at once,
// still within MaxActive across all jobs).
type Limits struct {
	MaxSeconds  int     `json:"maxSeconds"`
	MaxSpendUSD float64 `json:"maxSpendUSD"`
	Concurrency int     `json:"concurrency"`
}

// Ended reports whether the job has finished.
func (s Status) Ended() bool { return s.State != StateRunning }

// job is one running or finished group of runs.
type job struct {
	owner  string
	cancel context.CancelFunc
	done   chan struct{}

	mu      sync.Mutex
	st      Status
	changed chan struct{} // closed and replaced on every update
	// children cancels one child's run (CancelChild); byUser marks the
	// children a person cancelled, so their siblings' job still succeeds.
	children map[int]context.CancelFunc
	byUser   map[int]bool
	// stopped says why a limit ended the job ("stopped: spend limit …").
	stopped string
	// notify tells the Manager's listeners of the new status.
	notify func(Status)

	// persist stores the status after each update (nil: memory only).
	// saveMu orders the writes so the last one holds the last status.
	persist func()
	saveMu  sync.Mutex
}

func (j *job) status() Status {
	j.mu.Lock()
	defer j.mu.Unlock()
	s := j.st
	s.Steps = append([]Step(nil), j.st.Steps...)
	return s
}

func (j *job) hasRun(id string) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, s := range j.st.Steps {
		if s.RunID == id {
			return true
		}
	}
	return false
}

func (j *job) update(f func(*Status)) {
	j.mu.Lock()
	f(&j.st)
	close(j.changed)
	j.changed = make(chan struct{})
	j.mu.Unlock()
	if j.persist != nil {
		j.persist()
	}
	if j.notify != nil {
		j.notify(j.status())
	}
}

// stop ends the job because a limit was reached; the first reason wins.
func (j *job) stop(reason string) {
	j.mu.Lock()
	if j.stopped == "" {
		j.stopped = reason
	}
	j.mu.Unlock()
	j.cancel()
}

// waitFor waits until cond holds for the job's status, the job ended, or
// ctx is done, and returns the status then.
func (j *job) waitFor(ctx context.Context, cond func(Status) bool) Status {
	for {
		j.mu.Lock()
		ch := j.changed
		j.mu.Unlock()
		st := j.status()
		if cond(st) || st.Ended() {
			return st
		}
		select {
		case <-ch:
		case <-j.done:
			return j.status()
		case <-ctx.Done():
			return st
		}
	}
}

// Manager runs jobs over a pipeline. Safe for concurrent use.
type Manager struct {
	roles Roles // starts a step's run
	runs  Runs  // follows it
	slots chan struct{}
	db    *sql.DB // nil: jobs live in memory only (New)

	em    Emitter
	subMu sync.Mutex
	subs  []func()

	// holder names this process's lock file in holdDir (others.go); ""
	// when jobs live in memory only.
	holdDir, holder string
	holdFile        *os.File

	mu     sync.Mutex
	jobs   map[string]*job
	order  []string // job ids, oldest first, for pruning
	closed bool
	ctx    context.Context
	stop   context.CancelFunc
	wg     sync.WaitGroup
}

// New returns a Manager over p that keeps jobs in memory only (Open keeps
// them in the database too).
func New(roles Roles, rs Runs) *Manager {
	m := &Manager{roles: roles, runs: rs, slots: make(chan struct{}, MaxActive), jobs: map[string]*job{}}
	m.ctx, m.stop = context.WithCancel(context.Background())
	return m
}

// Close cancels every job (and so their runs) and waits until each has
// recorded its end.
func (m *Manager) Close() {
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
	m.stop()
	m.wg.Wait()
	m.release()
}

// launch registers a job of kind for owner and runs body in the
// background. until, when not nil, ends the job when it closes (the
// starting run ended). id "" picks a fresh one.
func (m *Manager) launch(owner, kind, id string, steps []Step, until <-chan struct{}, body func(ctx context.Context, j *job)) (*job, error) {
	return m.launchWith(owner, kind, id, steps, until, Status{}, body)
}

// launchWith is launch for a job with a title and limits (head): the time
// limit ends it, and its end says which limit stopped it.
func (m *Manager) launchWith(owner, kind, id string, steps []Step, until <-chan struct{}, head Status, body func(ctx context.Context, j *job)) (*job, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	going := 0
	for _, j := range m.jobs {
		if j.owner == owner && !j.status().Ended() {
			going++
		}
	}
	if going >= MaxJobs {
		return nil, fmt.Errorf("%w: %d are still going for this caller; wait for one to end or cancel one", ErrBusy, going)
	}
	if id == "" {
		id = newID(kind)
	}
	ctx, cancel := context.WithCancel(m.ctx)
	for i := range steps {
		if steps[i].ID == "" {
			steps[i].ID = strconv.Itoa(i + 1)
		}
	}
	j := &job{owner: owner, cancel: cancel, done: make(chan struct{}), changed: make(chan struct{}),
		children: map[int]context.CancelFunc{}, byUser: map[int]bool{}, notify: m.notify,
		st: Status{ID: id, Kind: kind, State: StateRunning, Steps: steps, Title: head.Title, Limits: head.Limits, StartedBy: startedBy(owner),
			StartedAt: time.Now().UnixMilli()}}
	if m.db != nil {
		j.persist = func() {
			j.saveMu.Lock()
			defer j.saveMu.Unlock()
			if err := m.save(context.Background(), owner, j.status()); err != nil {
				// The job goes on; only reading it after a restart is lost.
				log.Printf("osfoundry: %v", err)
			}
		}
		j.persist()
	}
	m.jobs[id] = j
	m.order = append(m.order, id)
	m.prune()
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		defer close(j.done)
		defer cancel()
		if until != nil {
			go func() {
				select {
				case <-until:
					cancel()
				case <-ctx.Done():
				}
			}()
		}
		if secs := head.Limits.MaxSeconds; secs > 0 {
			t := time.AfterFunc(time.Duration(secs)*time.Second, func() {
				j.stop(fmt.Sprintf("stopped: time limit %s reached", time.Duration(secs)*time.Second))
			})
			defer t.Stop()
		}
		body(ctx, j)
		j.mu.Lock()
		stopped := j.stopped
		j.mu.Unlock()
		j.update(func(s *Status) {
			switch {
			case stopped != "":
				s.State, s.Error = StateStopped, stopped
			case ctx.Err() != nil && (s.State == StateRunning || s.State == StateFailed):
				s.State, s.Error = StateCancelled, "cancelled before it finished"
			}
			s.EndedAt = time.Now().UnixMilli()
		})
	}()
	return j, nil
}

// keepJobs bounds the jobs kept in memory; the oldest ended ones go first
// (their runs stay on the board and in the pipeline's records).
const keepJobs = 256

func (m *Manager) prune() {
	for i := 0; len(m.jobs) > keepJobs && i < len(m.order); {
		id := m.order[i]
		if m.jobs[id].status().Ended() {
			delete(m.jobs, id)
			m.order = append(m.order[:i], m.order[i+1:]...)
			continue
		}
		i++
	}
}

// Get returns a job's status. Only its owner may read it: another caller
// gets ErrNoJob, as if it did not exist.
func (m *Manager) Get(owner, id string) (Status, error) {
	j, err := m.lookup(owner, id)
	if err != nil {
		return Status{}, err
	}
	return j.status(), nil
}

// Wait waits until the job ended or ctx is done and returns its status.
func (m *Manager) Wait(ctx context.Context, owner, id string) (Status, error) {
	j, err := m.lookup(owner, id)
	if err != nil {
		return Status{}, err
	}
	select {
	case <-j.done:
	case <-ctx.Done():
	}
	return j.status(), nil
}

// Cancel stops a job: no further step starts and its running runs are
// cancelled (their process groups killed). It returns once the job has
// recorded its end.
func (m *Manager) Cancel(owner, id string) (Status, error) {
	j, err := m.lookup(owner, id)
	if err != nil {
		return Status{}, err
	}
	j.cancel()
	<-j.done
	return j.status(), nil
}

// lookup finds owner's job by its id or by the run id of one of its steps
// (request_session_run hands out the run id).
func (m *Manager) lookup(owner, id string) (*job, error) {
	m.mu.Lock()
	j := m.jobs[id]
	if j == nil {
		for _, c := range m.jobs {
			if c.owner == owner && c.hasRun(id) {
				j = c
				break
			}
		}
	}
	m.mu.Unlock()
	if j == nil {
		var err error
		if j, err = m.stored(owner, id); err != nil {
			return nil, err
		}
	}
	if j == nil || j.owner != owner {
		return nil, fmt.Errorf("%w %q: use the id a start call of yours returned", ErrNoJob, id)
	}
	return j, nil
}
