// Package tools defines the app's tool contract: every tool any model may
// call (through the per-run bridge, the Connected endpoint or an API model)
// is a Tool, and every call goes through one Executor and its policy gate.
package tools

import (
	"context"
	"encoding/json"
)

// Scopes a tool can require (the OAuth scopes of the Connected endpoint).
const (
	ScopeRead   = "osfoundry:read"
	ScopeWrite  = "osfoundry:write"
	ScopeRun    = "osfoundry:run"
	ScopeModels = "osfoundry:models"
)

// Meta is a tool's static description and policy metadata.
type Meta struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"` // JSON Schema object
	// ReadOnly tools change nothing; others are writes.
	ReadOnly bool `json:"readOnly"`
	// Destructive writes may overwrite or remove data.
	Destructive bool `json:"destructive"`
	// Scope is the OAuth scope a Connected client needs (ScopeRead, …).
	Scope string `json:"scope"`
	// NeedsApproval tools ask the user before running (live screen, Canvas).
	NeedsApproval bool `json:"needsApproval"`
	// Unattended tools may run in a run nobody is watching.
	Unattended bool `json:"unattended"`
}

// Call is one invocation. Workspace, User and Channel are bound by whoever
// accepted the connection (bridge start, OAuth token); they are never read
// from the request or the tool arguments.
type Call struct {
	Workspace string
	User      string
	Channel   string
	Tool      string
	Args      json.RawMessage
	// Watched is true when a person can answer an approval request now.
	Watched bool
	// PlanMode runs refuse every write.
	PlanMode bool
	// Source names the caller for the audit ("bridge:<run>", "connect:<id>").
	Source string
	// Folder is the run's working folder, bound when the run starts
	// (code_search, extract_content). Tools never take a folder from Args.
	Folder string
	// Project is the project a run was started for, bound when it starts
	// ("" = none); a run's message tools reach only its discussion channel.
	Project string
}

// Result is what a tool returns. IsError marks a tool-level failure the
// model should read (a conflict, a missing item), not a protocol failure.
type Result struct {
	Text       string `json:"text"`
	Structured any    `json:"structured,omitempty"`
	IsError    bool   `json:"isError,omitempty"`
}

// Handler runs a tool. It returns an error only for failures the caller
// cannot act on (database gone); user-correctable problems are Results
// with IsError set.
type Handler func(ctx context.Context, c Call) (Result, error)

// Tool is a tool's description plus its implementation.
type Tool struct {
	Meta
	Handler Handler `json:"-"`
}

// ErrorResult is a convenience for a tool-level error message.
func ErrorResult(msg string) Result { return Result{Text: msg, IsError: true} }

// JSONResult renders v as indented JSON text and keeps it as structured content.
func JSONResult(v any) Result {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return ErrorResult("encoding result: " + err.Error())
	}
	return Result{Text: string(b), Structured: v}
}
