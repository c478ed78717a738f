package tools

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/warm"
)

// Decisions the executor (and the bridge, for calls it refuses before
// forwarding) writes to the audit.
const (
	DecisionRan          = "ran"           // the handler ran and returned a result
	DecisionFailed       = "failed"        // the handler returned an error or panicked
	DecisionUnknown      = "unknown_tool"  // no tool of that name is registered
	DecisionChannel      = "channel_off"   // the channel disabled the tool
	DecisionPlanMode     = "plan_mode"     // a write in plan mode
	DecisionUnattended   = "unattended"    // needs approval or a watcher, nobody is watching
	DecisionDeclined     = "declined"      // the user declined the approval request
	DecisionNoAnswer     = "no_answer"     // the approval wait ended without an answer
	DecisionNotAvailable = "not_available" // the bridge refused a name outside the run's allowlist
)

// ErrDuplicateTool is returned by Register when a tool of that name exists.
var ErrDuplicateTool = errors.New("a tool with this name is already registered")

// ChannelPolicy narrows what the tools of one channel may do. The zero value
// changes nothing. "*" in a list means every tool.
type ChannelPolicy struct {
	// Disabled tools are refused on this channel.
	Disabled []string `json:"disabled,omitempty"`
	// ForceApproval tools ask the user first on this channel even when their
	// metadata does not require it.
	ForceApproval []string `json:"forceApproval,omitempty"`
}

func (p ChannelPolicy) disables(tool string) bool {
	return slices.Contains(p.Disabled, "*") || slices.Contains(p.Disabled, tool)
}

func (p ChannelPolicy) forcesApproval(tool string) bool {
	return slices.Contains(p.ForceApproval, "*") || slices.Contains(p.ForceApproval, tool)
}

// Options configures an Executor. Nil fields get safe defaults: no
// Approver means approval-gated tools are refused, no Auditor means calls
// are not recorded (tests only — the app always passes one).
type Options struct {
	Approver Approver
	Auditor  Auditor
	// Now is the clock for audit times (tests inject a fixed one).
	Now func() time.Time
}

// Executor is the single place every tool call from any model goes
// through: the bridge, the Connected endpoint and API models all call
// Execute, so the policy gate and the audit cannot be bypassed.
type Executor struct {
	approver Approver
	auditor  Auditor
	now      func() time.Time

	mu       sync.RWMutex
	tools    map[string]Tool
	channels map[string]ChannelPolicy
}

// NewExecutor returns an Executor with no tools registered.
func NewExecutor(o Options) *Executor {
	e := &Executor{
		approver: o.Approver,
		auditor:  o.Auditor,
		now:      o.Now,
		tools:    map[string]Tool{},
		channels: map[string]ChannelPolicy{},
	}
	if e.auditor == nil {
		e.auditor = nopAuditor{}
	}
	if e.now == nil {
		e.now = time.Now
	}
	return e
}

// Register adds a tool. Names must be unique and the tool must have a
// handler and an object input schema.
func (e *Executor) Register(t Tool) error {
	if err := validTool(t); err != nil {
		return fmt.Errorf("registering tool %q: %w", t.Name, err)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, dup := e.tools[t.Name]; dup {
		return fmt.Errorf("registering tool %q: %w", t.Name, ErrDuplicateTool)
	}
	e.tools[t.Name] = t
	return nil
}

func validTool(t Tool) error {
	if t.Name == "" || strings.ContainsAny(t.Name, " \t\r\n/") {
		return errors.New("name must be non-empty without spaces or slashes")
	}
	if t.Handler == nil {
		return errors.New("no handler")
	}
	if len(t.InputSchema) == 0 || !strings.HasPrefix(strings.TrimSpace(string(t.InputSchema)), "{") {
		return errors.New("input schema must be a JSON object")
	}
	return nil
}

// Lookup returns a registered tool's metadata.
func (e *Executor) Lookup(name string) (Meta, bool) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	t, ok := e.tools[name]
	return t.Meta, ok
}

// Tools lists the registered tools' metadata sorted by name.
func (e *Executor) Tools() []Meta {
	e.mu.RLock()
	defer e.mu.RUnlock()
	out := make([]Meta, 0, len(e.tools))
	for _, t := range e.tools {
		out = append(out, t.Meta)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// SetChannelPolicy replaces the overrides of one channel (the zero policy
// removes them).
func (e *Executor) SetChannelPolicy(channel string, p ChannelPolicy) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(p.Disabled) == 0 && len(p.ForceApproval) == 0 {
		delete(e.channels, channel)
		return
	}
	e.channels[channel] = p
}

// ChannelPolicy returns the overrides of one channel.
func (e *Executor) ChannelPolicy(channel string) ChannelPolicy {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.channels[channel]
}

// Execute runs one call through the policy gate. Refusals are tool-level
// error Results the model can read; the returned error is only for
// failures nobody can act on (a handler's internal error, cancellation).
// Every call, refused or not, is audited.
func (e *Executor) Execute(ctx context.Context, c Call) (res Result, err error) {
	start := e.now()
	decision, detail := "", ""
	defer func() {
		if err != nil && decision == "" {
			decision, detail = DecisionFailed, err.Error()
		}
		e.audit(ctx, c, start, decision, detail)
	}()

	e.mu.RLock()
	t, ok := e.tools[c.Tool]
	pol := e.channels[c.Channel]
	e.mu.RUnlock()
	if !ok {
		decision = DecisionUnknown
		return ErrorResult(fmt.Sprintf("unknown tool %q: it does not exist in this app; call only the tools you were offered", c.Tool)), nil
	}
	if pol.disables(c.Tool) {
		decision = DecisionChannel
		return ErrorResult(fmt.Sprintf("%s is turned off for %q runs in Settings → Tool policy; ask the user to turn it back on there", c.Tool, c.Channel)), nil
	}
	if c.PlanMode && !t.ReadOnly {
		decision = DecisionPlanMode
		return ErrorResult(fmt.Sprintf("plan mode: %s changes things; switch plan mode off in the chat to allow it (until then, describe the change in your plan)", c.Tool)), nil
	}
	needsApproval := t.NeedsApproval || pol.forcesApproval(c.Tool)
	if !c.Watched && (needsApproval || !t.Unattended) {
		decision = DecisionUnattended
		why := "must run with a person present"
		if needsApproval {
			why = "needs the user's approval"
		}
		return ErrorResult(fmt.Sprintf("tool %q %s and nobody is watching this run; it was not run — finish without it or ask the user to run the task in a watched session", c.Tool, why)), nil
	}
	if needsApproval {
		ok, why, aerr := e.approve(ctx, c)
		if aerr != nil {
			decision, detail = DecisionNoAnswer, aerr.Error()
			return Result{}, fmt.Errorf("waiting for approval of %s: %w", c.Tool, aerr)
		}
		if !ok {
			decision, detail = DecisionDeclined, why
			return ErrorResult(fmt.Sprintf("the user declined %q with these arguments; do not retry it unchanged", c.Tool)), nil
		}
	}
	warm.Do(func() { res, err = runHandler(ctx, t, c) })
	if err != nil {
		decision, detail = DecisionFailed, err.Error()
		return Result{}, fmt.Errorf("running %s: %w", c.Tool, err)
	}
	decision = DecisionRan
	if res.IsError {
		detail = firstLine(res.Text)
	}
	return res, nil
}

func (e *Executor) approve(ctx context.Context, c Call) (bool, string, error) {
	if e.approver == nil {
		return false, "no approver configured", nil
	}
	d, err := e.approver.RequestApproval(ctx, ApprovalRequest{
		Workspace: c.Workspace, User: c.User, Channel: c.Channel,
		Tool: c.Tool, Args: c.Args, Source: c.Source, At: e.now().UnixMilli(),
	})
	if err != nil {
		return false, "", err
	}
	return d.Approved, d.Reason, nil
}

// runHandler turns a handler panic into an error so one broken tool cannot
// take down the bridge or the app.
func runHandler(ctx context.Context, t Tool, c Call) (res Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("tool %s panicked: %v\n%s", t.Name, p, debug.Stack())
		}
	}()
	return t.Handler(ctx, c)
}

// RecordRefusal audits a call refused before it reached Execute (the
// bridge refusing a name outside the run's allowlist).
func (e *Executor) RecordRefusal(ctx context.Context, c Call, decision, detail string) {
	e.audit(ctx, c, e.now(), decision, detail)
}

func (e *Executor) audit(ctx context.Context, c Call, start time.Time, decision, detail string) {
	// The audit must land even when the caller's context was cancelled
	// (a run ending mid-call is exactly when the record matters).
	actx := context.WithoutCancel(ctx)
	_ = e.auditor.Record(actx, AuditEntry{
		At: start, Workspace: c.Workspace, User: c.User, Channel: c.Channel,
		Source: c.Source, Tool: c.Tool, Args: c.Args, Decision: decision, Detail: detail,
		Duration: e.now().Sub(start),
	})
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}
