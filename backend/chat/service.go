package chat

import (
	"context"
	"database/sql"
	"fmt"
	"log"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/code"
	"github.com/osfoundry/desktop/backend/pipeline"
	"github.com/osfoundry/desktop/backend/roles"
	"github.com/osfoundry/desktop/backend/runs"
	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/tools"
)

type nopEmitter struct{}

func (nopEmitter) Emit(string, any) {}

// EventChanged says chats, runs or roles changed (payload: chat id or "").
// Runs' own live updates are runs.EventRun.
const EventChanged = "pipeline:changed"

// Options configure a Service.
type Options struct {
	DB      *sql.DB
	Runner  *agentcli.Runner
	Emitter runs.Emitter
	Tools   pipeline.ToolsFunc
	// Pending lists the approval requests waiting for the user (the app's
	// tools.ApprovalQueue.Pending); a run whose bridge asked shows as Needs
	// you. Call ApprovalsChanged when the queue changes.
	Pending func() []tools.ApprovalRequest
	// ExtraModels adds the app's other model groups to the picker.
	ExtraModels func() []roles.ModelGroup
	Now         func() time.Time
	// Logf writes to the app's log what went wrong out of sight (a chat
	// title that could not be made); nil: the standard logger.
	Logf func(format string, args ...any)
}

// Service keeps the chats and builds what they run on: roles, the run
// engine, the Code screen's isolation and the pipeline that resolves
// tasks (the app binds each through its own binding). Safe for
// concurrent use.
type Service struct {
	o   Options
	db  *sql.DB
	run *agentcli.Runner
	em  runs.Emitter

	eng   *runs.Engine      // starts, follows and records every run
	code  *code.Service     // the Code screen: where a run works, its branch
	roles *roles.Service    // each role's model, agents, folders, CLIs
	p     *pipeline.Service // resolves each task into a run

	mu      sync.Mutex
	subs    map[int]func()
	nextSub int
	wg      sync.WaitGroup // titling in the background
	titling sync.WaitGroup // chats being titled in the background (also in wg)
	closed  bool
	runCtx  context.Context // the engine's: ends when runs are stopped
	history HistoryFunc     // "Continue here"'s earlier conversation
}

// New migrates the pipeline tables and returns the service.
func New(ctx context.Context, o Options) (*Service, error) {
	if o.DB == nil || o.Runner == nil {
		return nil, fmt.Errorf("starting the pipeline: a database and a runner are required")
	}
	if err := store.Migrate(ctx, o.DB, Component, migrations); err != nil {
		return nil, fmt.Errorf("starting the pipeline: %w", err)
	}
	if err := store.Migrate(ctx, o.DB, planComponent, planMigrations); err != nil {
		return nil, fmt.Errorf("starting the pipeline: %w", err)
	}
	if err := store.Migrate(ctx, o.DB, compactionComponent, compactionMigrations); err != nil {
		return nil, fmt.Errorf("starting the pipeline: %w", err)
	}
	if err := store.Migrate(ctx, o.DB, modelComponent, modelMigrations); err != nil {
		return nil, fmt.Errorf("starting the pipeline: %w", err)
	}
	if o.Logf == nil {
		o.Logf = log.Printf
	}
	if o.Emitter == nil {
		o.Emitter = nopEmitter{}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	s := &Service{o: o, db: o.DB, run: o.Runner, em: o.Emitter, subs: map[int]func(){}}
	var err error
	if s.roles, err = roles.New(ctx, roles.Options{DB: o.DB, Runner: o.Runner, Emitter: o.Emitter,
		Changed: func() { s.changed("") }, ExtraModels: o.ExtraModels, Now: o.Now}); err != nil {
		return nil, fmt.Errorf("starting the pipeline: %w", err)
	}
	eng, err := runs.New(ctx, runs.Options{DB: o.DB, Runner: o.Runner, Emitter: o.Emitter, Now: o.Now,
		Changed: s.changed, Interrupted: s.chatInterrupted})
	if err != nil {
		return nil, fmt.Errorf("starting the pipeline: %w", err)
	}
	s.eng, s.runCtx = eng, eng.Context()
	if s.code, err = code.New(ctx, code.Options{DB: o.DB, Engine: eng, Folders: codeHost{s}, Chats: codeHost{s},
		NoFolders: roles.ErrNoFolders, Changed: s.changed, Now: o.Now}); err != nil {
		return nil, fmt.Errorf("starting the pipeline: %w", err)
	}
	// o.Tools is read as each run starts, not once here.
	tools := func(runID string, role roles.Role) *agentcli.ToolAccess {
		if s.o.Tools == nil {
			return nil
		}
		return s.o.Tools(runID, role)
	}
	if s.p, err = pipeline.New(pipeline.Options{Roles: s.roles, Engine: eng, Code: s.code, Tools: tools}); err != nil {
		return nil, err
	}
	return s, nil
}

// Close cancels every running run (killing their process groups) and waits
// for them to be recorded.
func (s *Service) Close() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.eng.Close() // a run that ends meanwhile may start titling: wg counts it
	s.wg.Wait()
	return s.roles.Close()
}

func (s *Service) now() time.Time { return s.o.Now() }

// Runs is the run engine every run of this service goes through: what
// follows a run once started (orchestration waits for and cancels its
// children there).
func (s *Service) Runs() *runs.Engine { return s.eng }

// Pipeline resolves tasks of roles and agents into runs (orchestration's
// steps, the Agents screen's runs).
func (s *Service) Pipeline() *pipeline.Service { return s.p }

// Roles is what runs are set up with: each role's model, the agents, the
// Local Folders and the External AI rows.
func (s *Service) Roles() *roles.Service { return s.roles }

// Code is the Code screen's service over this pipeline's runs, Local
// Folders and chats.
func (s *Service) Code() *code.Service { return s.code }
