// Package workers assembles the app's CLI workers: the one tool executor
// (with its audit, to-dos, memory_search over the notes store and the
// live-screen tools over the terminal panes), the approval queue the window
// answers, the Claude Code / Codex runner, and the pipeline service with
// its window bindings. The app builds it once and closes it on quit.
package workers

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/approvals"
	"github.com/osfoundry/desktop/backend/board"
	"github.com/osfoundry/desktop/backend/chat"
	"github.com/osfoundry/desktop/backend/code"
	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/backend/orchestrate"
	"github.com/osfoundry/desktop/backend/panetools"
	"github.com/osfoundry/desktop/backend/roles"
	"github.com/osfoundry/desktop/backend/runnotify"
	"github.com/osfoundry/desktop/backend/runs"
	"github.com/osfoundry/desktop/backend/terminal"
	"github.com/osfoundry/desktop/backend/tools"
	"github.com/osfoundry/desktop/rules"
)

// Emitter sends one UI event (the app's Wails adapter).
type Emitter interface {
	Emit(event string, payload any)
}

// Options are the app's shared services the workers use.
type Options struct {
	DB      *sql.DB
	Emitter Emitter
	// Memory backs memory_search (the app's one notes store).
	Memory tools.MemorySearcher
	// Terminal backs the live-screen tools and the Sign in terminal; nil
	// offers neither.
	Terminal *terminal.Manager
	// Rules reads pane screens for the live-screen tools' guards; the app
	// passes the panes' own rule set. Nil loads the bundled rules with the
	// home's overrides.
	Rules *detect.Registry
	// DataDir is the app data folder (run worktrees live under it).
	DataDir string
	// Env is the machine the CLIs are found and started in; the zero value
	// is the app's own, read at every use (agentcli.SystemEnv: it changes
	// once when the login shell's PATH arrives).
	Env agentcli.Env
	// Notify shows the desktop notification of a chat or run that waits
	// for the person's approval (the panes' words and cooldown, see
	// runnotify); nil shows none.
	Notify func(detect.Notification)
}

// Workers is the assembled set. Exactly one exists per app: the executor
// and the approval queue are shared by every caller of the app's tools.
type Workers struct {
	Executor  *tools.Executor
	Approvals *tools.ApprovalQueue
	Audit     *tools.SQLAuditor
	Todos     *tools.Todos
	Runner    *agentcli.Runner
	Chat      *chat.Service // chats, and through it roles, the run engine, code and the pipeline
	// Orchestrator runs fleets, loops and graphs of pipeline runs
	// (spawn_fleet, loop_run, graph_run; the Connected run tools).
	Orchestrator *orchestrate.Manager

	// Window bindings.
	ChatBinding        *chat.Binding
	RolesBinding       *roles.Binding
	ApprovalsBinding   *approvals.Binding
	OrchestrateBinding *orchestrate.OrchestrateBinding

	// CodeBinding is the Code screen's: a workspace's repository, its
	// worktree isolation and the isolated runs.
	CodeBinding *code.Binding

	// ring raises the chats' and runs' notifications; nil rings nothing.
	ring *runnotify.Notifier

	cancel context.CancelFunc
}

// Channel is the audit channel of the pipeline's runs.
const Channel = "pipeline"

// User is the local person the app's own runs act for.
const User = "local"

// liveScreen are the live-screen tools a pipeline run may call; typing
// into a pane asks the user first (the executor's gate).
var liveScreen = []string{"runtime_list", "runtime_read", "runtime_send", "runtime_answer"}

// Open builds the workers. Close ends every run.
func Open(ctx context.Context, o Options) (*Workers, error) {
	if o.DB == nil {
		return nil, errors.New("starting the workers: the app database is required")
	}
	runnerOpts := agentcli.RunnerOptions{Env: o.Env, WorktreeDir: filepath.Join(o.DataDir, "worktrees")}
	home := o.Env.Home
	if o.Env.Home == "" && o.Env.Path == "" && o.Env.Environ == nil {
		runnerOpts.LiveEnv = agentcli.SystemEnv
		home, _ = os.UserHomeDir()
	}
	w := &Workers{}
	var err error
	if w.Audit, err = tools.NewSQLAuditor(ctx, o.DB); err != nil {
		return nil, fmt.Errorf("starting the workers: %w", err)
	}
	if w.Todos, err = tools.NewTodos(ctx, o.DB); err != nil {
		return nil, fmt.Errorf("starting the workers: %w", err)
	}
	// The queue reaches the pipeline through this variable: the pipeline
	// needs the queue's Pending, the queue tells the pipeline of changes.
	var svc *chat.Service
	w.Approvals = approvals.NewQueue(o.Emitter, func() {
		if svc != nil {
			svc.ApprovalsChanged()
		}
	}, func(r tools.ApprovalRequest) {
		if w.ring != nil { // set with svc
			w.ring.Asked(r)
		}
	})
	w.Executor = tools.NewExecutor(tools.Options{Approver: w.Approvals, Auditor: w.Audit})
	deps := tools.Deps{Memory: o.Memory, Todos: w.Todos}
	allow := slices.Clone(roles.DefaultTools)
	if o.Terminal != nil {
		reg := o.Rules
		if reg == nil {
			var err error
			if reg, _, err = detect.Load(rules.Files, home); err != nil { // broken user overrides are skipped, as in the panes
				return nil, fmt.Errorf("starting the workers: loading the detection rules: %w", err)
			}
		}
		panes, err := panetools.New(o.Terminal, reg)
		if err != nil {
			return nil, err
		}
		deps.Panes, deps.Blocked = panes, panes.Blocked
		allow = append(allow, liveScreen...)
	}
	if err := tools.RegisterBuiltins(w.Executor, deps); err != nil {
		return nil, fmt.Errorf("starting the workers: %w", err)
	}
	w.Runner = agentcli.NewRunner(runnerOpts)
	svc, err = chat.New(ctx, chat.Options{
		DB: o.DB, Runner: w.Runner, Emitter: progressTee{o.Emitter, w}, Pending: w.Approvals.Pending,
		// Runs started in the window are watched: a tool that needs the
		// user raises a prompt there instead of being refused. Runs started
		// by an outside assistant are not (runAccess).
		Tools: func(runID string, role roles.Role) *agentcli.ToolAccess {
			o, _ := svc.Runs().OriginOf(runID)
			return runAccess(w.Executor, allow, role, o)
		},
	})
	if err != nil {
		return nil, err
	}
	w.Chat = svc
	if o.Notify != nil {
		w.ring = runnotify.New(svc, nil, o.Notify)
	}
	if w.Orchestrator, err = orchestrate.Open(ctx, svc.Pipeline(), svc.Runs(), o.DB); err != nil {
		return nil, fmt.Errorf("starting the workers: %w", err)
	}
	if o.Emitter != nil {
		w.Orchestrator.SetEmitter(o.Emitter)
	}
	for _, t := range w.Orchestrator.BridgeTools() {
		if err := w.Executor.Register(t); err != nil {
			return nil, fmt.Errorf("starting the workers: %w", err)
		}
	}
	var open roles.PaneOpener
	if o.Terminal != nil {
		open = func(si roles.SignIn) (string, error) {
			info, err := o.Terminal.Create(terminal.Options{Dir: si.Dir, Argv: si.Argv, Env: si.Env})
			if err != nil {
				return "", fmt.Errorf("opening the Sign in terminal: %w", err)
			}
			return info.ID, nil
		}
	}
	var bctx context.Context
	bctx, w.cancel = context.WithCancel(context.Background())
	w.ChatBinding = chat.NewBinding(bctx, svc)
	w.RolesBinding = roles.NewBinding(bctx, svc.Roles(), open)
	w.CodeBinding = code.NewBinding(bctx, svc.Code())
	w.ApprovalsBinding = approvals.NewBinding(w.Approvals)
	w.OrchestrateBinding = orchestrate.NewBinding(w.Orchestrator)
	return w, nil
}

// progressTee passes the pipeline's events on, gives a run's progress
// lines to the orchestrator, whose jobs show each child's newest line, and
// tells the notifier when a chat's run ended: the end event goes out once
// the answer is kept in the chat, so the chat's state is already the new
// one.
type progressTee struct {
	em Emitter
	w  *Workers
}

func (t progressTee) Emit(event string, payload any) {
	if t.em != nil {
		t.em.Emit(event, payload)
	}
	if e, ok := payload.(runs.RunEvent); ok && event == runs.EventRun && e.Kind == agentcli.KindProgress && t.w.Orchestrator != nil {
		t.w.Orchestrator.RunProgress(e.RunID, e.Text)
	}
	if e, ok := payload.(runs.RunEvent); ok && event == runs.EventRun && e.Kind == "end" && e.ChatID != "" && e.State == runs.StateDone && t.w.ring != nil {
		t.w.ring.Answered(e.ChatID)
	}
}

// Close cancels every run (killing their process groups), waits until they
// are recorded, and ends calls still waiting in the window.
func (w *Workers) Close() error {
	w.Orchestrator.Close()
	err := w.Chat.Close()
	w.cancel()
	return errors.Join(err, w.Audit.Close())
}

// BoardSources are the Sessions board's sources of the chats and agent
// runs and of the Team and Loop cards; a job's runs show on its card, not
// as agent cards of their own.
func (w *Workers) BoardSources() (chats, jobs board.Watched) {
	teams := orchestrate.NewBoardSource(w.Orchestrator, w.Chat.RunStates)
	pipe := chat.NewBoardSource(w.Chat, teams.ChildRuns)
	// A Team or Loop card pauses its runs the way an Agent card does.
	return pipe, teams.PauseWith(pipe)
}
