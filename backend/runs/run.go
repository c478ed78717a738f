// Package runs is the run engine under Chat, Agents, Orchestration and the
// Code screen: it starts one CLI run from a spec that is already resolved
// (CLI and model, system prompt, turns, tools, folder or worktree), records
// it in pipeline_runs, streams its progress as EventRun events, and lets a
// caller wait for, cancel, pause or resume it. It keeps the text a run
// streamed as it comes, so the runs the app was stopped in are closed at
// the next start with what they had said and their worktree's changes on
// their branch.
//
// It never decides which model or role a run gets, never reads chats,
// roles or Local Folders, and never names a run: the caller resolves all of
// that (backend/pipeline for chats and agents, backend/orchestrate for
// fleets, loops and graphs) and hears the end through Spec.Ended.
package runs

import (
	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/cost"
)

// Run states (the Sessions board columns a run or a chat can be in).
const (
	StateRunning  = "running"
	StateNeedsYou = "needs_you"
	StatePaused   = "paused" // a run frozen by Pause: the board's Paused column
	StateIdle     = "idle"
	StateDone     = "done"
	StateFailed   = "failed"
)

// Run is one recorded run (a chat task, an agent run or an orchestrated
// child).
type Run struct {
	ID       string         `json:"id"`
	ChatID   string         `json:"chatId,omitempty"`
	AgentID  string         `json:"agentId,omitempty"`
	Title    string         `json:"title"`
	Model    string         `json:"model"`
	Role     string         `json:"role"`
	Folder   string         `json:"folder"`
	State    string         `json:"state"`
	Text     string         `json:"text"`
	Error    string         `json:"error,omitempty"`
	Progress []string       `json:"progress"`
	Usage    agentcli.Usage `json:"usage"`
	CostUSD  float64        `json:"costUsd"` // always 0 on a subscription
	// ReportedCostUSD is what the CLI computed at API prices (Claude
	// Code's total_cost_usd): what orchestration spend limits count.
	ReportedCostUSD float64 `json:"reportedCostUsd"`
	// Cost is what the screens show: the one rule of backend/cost applied
	// to ReportedCostUSD (subscription, and the CLI's figure as an estimate).
	Cost       cost.Cost `json:"cost"`
	SessionID  string    `json:"sessionId,omitempty"`
	Repo       string    `json:"repo,omitempty"`
	Branch     string    `json:"branch,omitempty"`
	DiffStat   string    `json:"diffStat,omitempty"`
	Diff       string    `json:"diff,omitempty"`
	StartedAt  int64     `json:"startedAt"`  // epoch ms
	FinishedAt int64     `json:"finishedAt"` // epoch ms; 0 while it runs
}

// EventRun carries a RunEvent: a progress line, partial text, the session
// id, or the run's end. The name predates this package; the screens
// listen for it.
const EventRun = "pipeline:run"

// RunEvent is one live update of a run.
type RunEvent struct {
	RunID  string `json:"runId"`
	ChatID string `json:"chatId,omitempty"`
	Kind   string `json:"kind"` // agentcli.Kind* or "end"
	Text   string `json:"text"`
	State  string `json:"state,omitempty"` // on "end": the run's final state
}

// Emitter sends one UI event; the app passes its Wails adapter.
type Emitter interface {
	Emit(event string, payload any)
}

type nopEmitter struct{}

func (nopEmitter) Emit(string, any) {}

// ErrInterrupted is the error an interrupted run is recorded with: the app
// stopped (quit, crashed or was killed) while the run was going.
const ErrInterrupted = "Interrupted: osFoundry stopped while this run was going. What it had done so far is kept below; send the task again to continue."
