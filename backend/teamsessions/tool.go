package teamsessions

import (
	"context"
	"encoding/json"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/tools"
)

// ToolListSharedSessions lists the approver's shared sessions.
const ToolListSharedSessions = "list_shared_sessions"

// Source offers list_shared_sessions on the Connected endpoint
// (connect.Options.Extra). A connection reads the sessions of the person
// who approved it, never anyone else's: the approver is bound when the
// connection was accepted, never taken from the arguments.
type Source struct{ S *Service }

var _ connect.ToolSource = Source{}

// Tools is list_shared_sessions (scope osfoundry:read).
func (a Source) Tools() []tools.Tool {
	return []tools.Tool{{Meta: tools.Meta{
		Name: ToolListSharedSessions,
		Description: "List the Sessions board of the desktops of the person who approved this connection, " +
			"while they share it (Settings → Team → Share this computer's sessions): for each session its kind, " +
			"title and state, and for a session that needs the person the line its prompt showed. " +
			"Terminal text is never available.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`),
		ReadOnly:    true,
		Scope:       tools.ScopeRead,
		Unattended:  true,
	}, Handler: a.list}}
}

// CallTarget names no single item: the list is the approver's own.
func (a Source) CallTarget(context.Context, string, json.RawMessage) (connect.Target, error) {
	return connect.Target{}, nil
}

func (a Source) list(ctx context.Context, c tools.Call) (tools.Result, error) {
	if c.User == "" {
		return tools.ErrorResult("this connection has no approver yet: finish connecting on the team server's consent page"), nil
	}
	sh, err := a.S.Shared(ctx, c.User, "")
	if err != nil {
		return tools.Result{}, err
	}
	if len(sh.Devices) == 0 {
		return tools.Result{Text: "No shared sessions: the person has not turned on \"Share this computer's sessions\" " +
			"in Settings → Team on any desktop that is open and signed in.", Structured: sh}, nil
	}
	return tools.JSONResult(sh), nil
}
