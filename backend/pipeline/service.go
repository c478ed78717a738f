package pipeline

import (
	"context"
	"database/sql"
	"fmt"
	"log"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/tools"
)

// Emitter sends one UI event; the app passes its Wails adapter.
type Emitter interface {
	Emit(event string, payload any)
}

type nopEmitter struct{}

func (nopEmitter) Emit(string, any) {}

// Events this package emits.
const (
	// EventRun carries a RunEvent: a progress line, partial text, the
	// session id, or the run's end.
	EventRun = "pipeline:run"
	// EventChanged says chats, runs or roles changed (payload: chat id or "").
	EventChanged = "pipeline:changed"
)

// RunEvent is one live update of a run.
type RunEvent struct {
	RunID  string `json:"runId"`
	ChatID string `json:"chatId,omitempty"`
	Kind   string `json:"kind"` // agentcli.Kind* or "end"
	Text   string `json:"text"`
	State  string `json:"state,omitempty"` // on "end": the run's final state
}

// ToolsFunc gives a run its bridge access (executor, workspace, allowlist),
// or nil for no app tools.
type ToolsFunc func(runID string, role Role) *agentcli.ToolAccess

// Options configure a Service.
type Options struct {
	DB      *sql.DB
	Runner  *agentcli.Runner
	Emitter Emitter
	Tools   ToolsFunc
	// Pending lists the approval requests waiting for the user (the app's
	// tools.ApprovalQueue.Pending); a run whose bridge asked shows as Needs
	// you. Call ApprovalsChanged when the queue changes.
	Pending func() []tools.ApprovalRequest
	// ExtraModels adds the app's other model groups to the picker.
	ExtraModels func() []ModelGroup
	Now         func() time.Time
	// Logf writes to the app's log what went wrong out of sight (a chat
	// title that could not be made); nil: the standard logger.
	Logf func(format string, args ...any)
}

// Service is what the External AI tab, Pipeline Roles, Local Folders,
// Agents and Chat screens bind. Safe for concurrent use.
type Service struct {
	o   Options
	db  *sql.DB
	run *agentcli.Runner
	em  Emitter

	mu       sync.Mutex
	active   map[string]*activeRun // run id → live run
	subs     map[int]func()
	nextSub  int
	wg       sync.WaitGroup
	titling  sync.WaitGroup // chats being titled in the background (also in wg)
	closed   bool
	stopRuns context.CancelFunc
	runCtx   context.Context
	checks   verifier    // "Verify sign-in" per CLI
	history  HistoryFunc // "Continue here"'s earlier conversation
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
	if err := store.Migrate(ctx, o.DB, codeComponent, codeMigrations); err != nil {
		return nil, fmt.Errorf("starting the pipeline: %w", err)
	}
	if err := store.Migrate(ctx, o.DB, compactionComponent, compactionMigrations); err != nil {
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
	s := &Service{o: o, db: o.DB, run: o.Runner, em: o.Emitter, active: map[string]*activeRun{}, subs: map[int]func(){}}
	s.runCtx, s.stopRuns = context.WithCancel(context.Background())
	if err := s.recoverInterrupted(ctx); err != nil {
		return nil, fmt.Errorf("starting the pipeline: %w", err)
	}
	return s, nil
}

// Close cancels every running run (killing their process groups) and waits
// for them to be recorded.
func (s *Service) Close() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.stopRuns()
	s.wg.Wait()
	return nil
}

func (s *Service) now() time.Time { return s.o.Now() }

// CLI is one row of the External AI tab.
type CLI struct {
	agentcli.Install
	Enabled bool `json:"enabled"`
	// Version is the CLI's own `--version`; VersionError says why it is
	// missing when the binary could not tell.
	Version      string `json:"version,omitempty"`
	VersionError string `json:"versionError,omitempty"`
}

// ExternalAI lists the Claude Code and Codex rows.
func (s *Service) ExternalAI(ctx context.Context) []CLI {
	var out []CLI
	for _, a := range []agentcli.Agent{agentcli.Claude, agentcli.Codex} {
		c := CLI{Install: s.run.Discover(a), Enabled: true}
		if c.Installed {
			if v, err := s.run.Version(ctx, a); err != nil {
				c.VersionError = err.Error()
			} else {
				c.Version = v
			}
		}
		var on int
		if err := s.db.QueryRowContext(ctx, `SELECT enabled FROM pipeline_cli WHERE agent = ?`, string(a)).Scan(&on); err == nil {
			c.Enabled = on == 1
		}
		out = append(out, c)
	}
	return out
}

// SetEnabled turns a CLI on or off for the pipeline.
func (s *Service) SetEnabled(ctx context.Context, agent string, on bool) (CLI, error) {
	a, err := parseAgent(agent)
	if err != nil {
		return CLI{}, err
	}
	v := 0
	if on {
		v = 1
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO pipeline_cli(agent, enabled) VALUES(?,?)
		ON CONFLICT(agent) DO UPDATE SET enabled = excluded.enabled`, string(a), v); err != nil {
		return CLI{}, fmt.Errorf("saving the %s setting: %w", a.Title(), err)
	}
	for _, c := range s.ExternalAI(ctx) {
		if c.Agent == a {
			return c, nil
		}
	}
	return CLI{}, fmt.Errorf("unknown CLI %q", agent)
}

// SignIn is what the "Sign in" button opens in a Terminal pane: the argv,
// the scrubbed environment, the folder, and the hint to show.
type SignIn struct {
	Argv []string `json:"argv"`
	Env  []string `json:"-"`
	Dir  string   `json:"dir"`
	Hint string   `json:"hint"`
}

// SignInCommand returns the Sign in terminal's command. The app passes it
// to terminal.Manager.Create(terminal.Options{Dir, Argv, Env}).
func (s *Service) SignInCommand(agent string) (SignIn, error) {
	a, err := parseAgent(agent)
	if err != nil {
		return SignIn{}, err
	}
	argv, err := s.run.SignInCommand(a)
	if err != nil {
		return SignIn{}, err
	}
	si := SignIn{Argv: argv, Env: s.run.ChildEnv(a), Dir: s.run.Env().Home}
	if a == agentcli.Claude {
		si.Hint = agentcli.ClaudeSignInHint
	}
	return si, nil
}

func parseAgent(s string) (agentcli.Agent, error) {
	switch agentcli.Agent(s) {
	case agentcli.Claude, agentcli.Codex:
		return agentcli.Agent(s), nil
	}
	return "", fmt.Errorf("unknown CLI %q: use claude or codex", s)
}
