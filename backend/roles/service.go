// Package roles is what a person sets up before any run: which model plays
// each role (Pipeline Roles), the agents they define (the Agents screen:
// a model preference and a runtime role), where runs work (Settings →
// Local Folders) and which CLIs may run at all (the External AI tab: the
// rows, on/off, Sign in and Verify sign-in). Chats, agent runs and
// orchestration read their choices here (RoleModel, GetAgent,
// CurrentFolder, ExternalAI); this package never starts a run of a task
// and never reads a chat.
package roles

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/store"
)

// Emitter sends one UI event (EventVerify); the app passes its Wails
// adapter.
type Emitter interface {
	Emit(name string, payload any)
}

type nopEmitter struct{}

func (nopEmitter) Emit(string, any) {}

// Options configure a Service.
type Options struct {
	DB     *sql.DB
	Runner *agentcli.Runner
	// Emitter carries the sign-in checks (EventVerify); nil: none.
	Emitter Emitter
	// Changed is called after a folder or an agent changed, so the screens
	// that list them reload; nil: nothing.
	Changed func()
	// ExtraModels adds the app's other model groups to the picker.
	ExtraModels func() []ModelGroup
	Now         func() time.Time
}

// Service keeps the roles, agents, Local Folders and the External AI
// rows. Safe for concurrent use.
type Service struct {
	o   Options
	db  *sql.DB
	run *agentcli.Runner
	em  Emitter

	mu     sync.Mutex
	closed bool
	wg     sync.WaitGroup  // sign-in checks in the background
	ctx    context.Context // ends on Close: the sign-in checks run under it
	cancel context.CancelFunc
	checks verifier // "Verify sign-in" per CLI
}

// New migrates the tables of roles, agents, folders and CLIs and returns
// the service.
func New(ctx context.Context, o Options) (*Service, error) {
	if o.DB == nil || o.Runner == nil {
		return nil, fmt.Errorf("starting roles: a database and a runner are required")
	}
	if err := store.Migrate(ctx, o.DB, Component, migrations); err != nil {
		return nil, fmt.Errorf("starting roles: %w", err)
	}
	if o.Emitter == nil {
		o.Emitter = nopEmitter{}
	}
	if o.Changed == nil {
		o.Changed = func() {}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	s := &Service{o: o, db: o.DB, run: o.Runner, em: o.Emitter}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	return s, nil
}

// Close cancels the sign-in checks still running and waits for them.
func (s *Service) Close() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.cancel()
	s.wg.Wait()
	return nil
}

func (s *Service) now() time.Time { return s.o.Now() }

func (s *Service) changed() { s.o.Changed() }
