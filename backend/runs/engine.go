package runs

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/cost"
)

// Spec is one run, resolved by its caller: nothing in it is looked up
// again. Model was parsed once, where the caller took the id.
type Spec struct {
	Title   string // what the run is called everywhere: its card, its row
	ChatID  string // "" for a run outside any chat
	AgentID string
	Model   agentcli.Model
	Role    string // the pipeline role's name, for messages
	// NeedsTools: the role calls tools (refuses chat mode, gets a bridge).
	NeedsTools   bool
	SystemPrompt string
	Turns        []agentcli.Turn // the conversation; the last is the task
	Folder       string
	Worktree     bool // on branch osf/run-<id> in a worktree of its own
	PlanMode     bool
	Resume       string // continue this CLI session
	Fork         bool   // resume in a new session (the original is the user's)
	Origin       Origin

	// Tools gives the run its bridge access once its id exists (nil: no
	// app tools).
	Tools func(runID string) *agentcli.ToolAccess
	// Recorded runs once the run is recorded and before it starts; an
	// error refuses the run (the Code screen lists an isolated run here).
	Recorded func(ctx context.Context, runID string) error
	// Work runs the job instead of the runner alone (a chat compacts
	// first); run is the runner's Run.
	Work func(ctx context.Context, job agentcli.Job, run RunFunc) (agentcli.Result, error)
	// Ended records what the run's owner keeps of its end (a chat's
	// message), after the run's row and before its end event; an error
	// marks the run failed.
	Ended func(ctx context.Context, o Outcome) error
	// After is called once the end event went out (a chat is titled).
	After func(state string)
}

// RunFunc runs one job to its end (agentcli.Runner.Run).
type RunFunc func(ctx context.Context, job agentcli.Job) (agentcli.Result, error)

// Outcome is how a run ended, as recorded.
type Outcome struct {
	RunID, ChatID string
	State         string // StateDone or StateFailed
	Error         string
	Result        agentcli.Result
	At            time.Time
}

// Options configure an Engine.
type Options struct {
	DB      *sql.DB
	Runner  *agentcli.Runner
	Emitter Emitter
	Now     func() time.Time
	// Changed is told a run of chatID ("" outside a chat) started, ended,
	// paused or resumed.
	Changed func(chatID string)
	// Interrupted is told, while New closes the runs the app was stopped
	// in, of each one's error (a chat keeps it as a message).
	Interrupted func(ctx context.Context, o Outcome) error
}

// Engine starts and follows runs. Safe for concurrent use.
type Engine struct {
	o      Options
	db     *sql.DB
	runner *agentcli.Runner
	em     Emitter

	mu       sync.Mutex
	active   map[string]*live // run id → live run (or tracked work)
	wg       sync.WaitGroup
	closed   bool
	ctx      context.Context
	stopRuns context.CancelFunc
}

// New returns the engine over o.DB's pipeline_runs table (already
// migrated) and closes the runs the app was stopped in.
func New(ctx context.Context, o Options) (*Engine, error) {
	if o.DB == nil || o.Runner == nil {
		return nil, errors.New("starting runs: a database and a runner are required")
	}
	if o.Emitter == nil {
		o.Emitter = nopEmitter{}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Changed == nil {
		o.Changed = func(string) {}
	}
	e := &Engine{o: o, db: o.DB, runner: o.Runner, em: o.Emitter, active: map[string]*live{}}
	e.ctx, e.stopRuns = context.WithCancel(context.Background())
	if err := e.recoverInterrupted(ctx); err != nil {
		return nil, err
	}
	return e, nil
}

// Runner is the CLI runner runs go through.
func (e *Engine) Runner() *agentcli.Runner { return e.runner }

// Context ends when the engine closes: work that belongs to runs
// (titling, sign-in checks) stops with them.
func (e *Engine) Context() context.Context { return e.ctx }

// Close cancels every run (killing their process groups) and waits for
// them to be recorded.
func (e *Engine) Close() {
	e.mu.Lock()
	e.closed = true
	e.mu.Unlock()
	e.stopRuns()
	e.wg.Wait()
}

// Closed reports whether Close was called.
func (e *Engine) Closed() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.closed
}

// Start records the run and runs it in the background; it returns the run
// as recorded (running). Progress arrives as EventRun events.
func (e *Engine) Start(ctx context.Context, spec Spec) (Run, error) {
	now := e.o.Now()
	r := Run{ID: agentcli.NewRunID(), ChatID: spec.ChatID, AgentID: spec.AgentID, Title: spec.Title, Model: spec.Model.ID,
		Role: spec.Role, Folder: spec.Folder, State: StateRunning, Progress: []string{}, StartedAt: now.UnixMilli(),
		Cost: cost.OfRun(0)}
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return Run{}, errors.New("the app is shutting down")
	}
	if err := e.insert(ctx, r); err != nil {
		e.mu.Unlock()
		return Run{}, err
	}
	if spec.Recorded != nil {
		if err := spec.Recorded(ctx, r.ID); err != nil {
			e.mu.Unlock()
			return Run{}, err
		}
	}
	rctx, cancel := context.WithCancel(e.ctx)
	lr := &live{id: r.ID, chatID: spec.ChatID, origin: spec.Origin, cancel: cancel, done: make(chan struct{}),
		ctl: agentcli.NewControl(), agent: spec.Model.Agent.Title()}
	e.active[r.ID] = lr
	e.wg.Add(1)
	e.mu.Unlock()
	e.o.Changed(spec.ChatID)
	go e.execute(rctx, lr, spec)
	return r, nil
}

func (e *Engine) execute(ctx context.Context, lr *live, spec Spec) {
	defer e.wg.Done()
	defer close(lr.done)
	defer lr.cancel()
	job := agentcli.Job{ID: lr.id, Model: spec.Model.ID, Role: spec.Role, NeedsTools: spec.NeedsTools,
		SystemPrompt: spec.SystemPrompt, Turns: spec.Turns, Folder: spec.Folder, Worktree: spec.Worktree, PlanMode: spec.PlanMode,
		Resume: spec.Resume, Fork: spec.Fork, OnEvent: func(ev agentcli.Event) { e.onEvent(lr, ev) }, Control: lr.ctl,
		OnWorktree: func(wt agentcli.WorktreeInfo) { e.recordWorktree(lr.id, wt) }}
	if spec.Tools != nil && spec.NeedsTools {
		job.Tools = spec.Tools(lr.id)
		if job.Tools != nil {
			job.Tools.PlanMode = spec.PlanMode
		}
	}
	var res agentcli.Result
	var runErr error
	if spec.Work != nil {
		res, runErr = spec.Work(ctx, job, e.runner.Run)
	} else {
		res, runErr = e.runner.Run(ctx, job)
	}
	lr.mu.Lock()
	if lr.timer != nil {
		lr.timer.Stop()
	}
	lr.mu.Unlock()
	e.flushPartial(lr)
	state, errText := StateDone, ""
	if runErr != nil {
		state, errText = StateFailed, runErr.Error()
	}
	e.finish(lr, spec, res, state, errText)
}

func (e *Engine) finish(lr *live, spec Spec, res agentcli.Result, state, errText string) {
	ctx := context.Background()
	prog, _ := json.Marshal(res.Progress)
	usage, _ := json.Marshal(res.Usage)
	at := e.o.Now()
	// A run cut short keeps the text it had streamed (written as it came).
	keepStreamed := state == StateFailed && res.Text == ""
	_, err := e.db.ExecContext(ctx, `UPDATE pipeline_runs SET state=?, text=CASE WHEN ? THEN text ELSE ? END, error=?, progress=?, usage=?, cost_usd=0,
		reported_cost_usd=?, session_id=?, repo=?, branch=?, diff_stat=?, diff=?, worktree='', finished_at=? WHERE id=?`,
		state, boolInt(keepStreamed), res.Text, errText, string(prog), string(usage), res.ReportedCostUSD, res.SessionID, res.Repo, res.Branch,
		res.DiffStat, res.Diff, at.UnixMilli(), lr.id)
	if err == nil && spec.Ended != nil {
		err = spec.Ended(ctx, Outcome{RunID: lr.id, ChatID: spec.ChatID, State: state, Error: errText, Result: res, At: at})
	}
	if err != nil {
		state, errText = StateFailed, "recording the run's result: "+err.Error()
	}
	e.mu.Lock()
	delete(e.active, lr.id)
	e.mu.Unlock()
	e.em.Emit(EventRun, RunEvent{RunID: lr.id, ChatID: spec.ChatID, Kind: "end", Text: errText, State: state})
	e.o.Changed(spec.ChatID)
	if spec.After != nil {
		spec.After(state)
	}
}

// partialEvery batches streamed answer text: one UI event per frame-ish
// interval instead of one per token.
const partialEvery = 50 * time.Millisecond

func (e *Engine) onEvent(lr *live, ev agentcli.Event) {
	if ev.Kind == agentcli.KindPartial {
		lr.mu.Lock()
		lr.partial.WriteString(ev.Text)
		due := time.Since(lr.flushed) >= partialEvery
		if !due && lr.timer == nil {
			lr.timer = time.AfterFunc(partialEvery, func() { e.flushPartial(lr) })
		}
		lr.mu.Unlock()
		if due {
			e.flushPartial(lr)
		}
		return
	}
	e.flushPartial(lr)
	if ev.Kind == agentcli.KindProgress || ev.Kind == agentcli.KindError {
		lr.mu.Lock()
		lr.progress = append(lr.progress, ev.Text)
		prog := append([]string{}, lr.progress...)
		lr.mu.Unlock()
		e.persistProgress(lr.id, prog)
	}
	e.em.Emit(EventRun, RunEvent{RunID: lr.id, ChatID: lr.chatID, Kind: ev.Kind, Text: ev.Text})
}

func (e *Engine) flushPartial(lr *live) {
	lr.mu.Lock()
	text := lr.partial.String()
	lr.partial.Reset()
	lr.flushed = time.Now()
	lr.timer = nil
	lr.mu.Unlock()
	if text != "" {
		e.persistPartial(lr.id, text)
		e.em.Emit(EventRun, RunEvent{RunID: lr.id, ChatID: lr.chatID, Kind: agentcli.KindPartial, Text: text})
	}
}

// live is a run in progress (or work tracked like one, Track).
type live struct {
	id, chatID string
	origin     Origin
	cancel     context.CancelFunc
	done       chan struct{}
	ctl        *agentcli.Control // Pause/Resume of its process group
	agent      string            // "Claude Code", for the paused line

	mu       sync.Mutex
	progress []string
	partial  strings.Builder
	flushed  time.Time
	timer    *time.Timer // flushes text still held when no more arrives
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
