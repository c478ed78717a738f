package connect

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/osfoundry/desktop/backend/tools"
)

// Grant is what an access token carries: who, which connection, which
// scopes, for which resource. Nothing else is trusted from it.
type Grant struct {
	ConnectionID string
	UserID       string
	ClientID     string
	Scopes       []string
	Resource     string
}

// Denial codes: item-level failures are tool results with isError, because
// another token would not fix them.
const (
	DenyRevoked       = "connection_revoked"
	DenyPending       = "connection_pending"
	DenyToolDisabled  = "tool_disabled"
	DenyNotFound      = "not_found"
	DenyNotInProject  = "not_in_project"
	DenyNotInvited    = "not_invited"
	DenyApproverView  = "approver_cannot_view"
	DenyApproverEdit  = "approver_cannot_edit"
	DenyNoRunner      = "runner_role_required"
	DenyInsufficient  = "insufficient_scope"
	DecisionAllowed   = "allowed"
	decisionToolError = "allowed (tool error)"
)

var denyText = map[string]string{
	DenyRevoked:      "The owner revoked this connection. Reconnect osFoundry to continue.",
	DenyPending:      "This connection is not set up yet. Finish connecting osFoundry first.",
	DenyToolDisabled: "The owner turned this tool off for this connection.",
	DenyNotFound:     "No such item in the connected workspace.",
	DenyNotInProject: "This item is in a project this connection has not been added to. Ask the owner to add the project (Connected agents → Projects → Add to project); call list_granted_resources to see what is open.",
	DenyNotInvited:   "This connection has not been invited to this Message channel. Being in a project opens only its discussion channel; other channels need the owner's Invite (Connected agents → Message channels → Invite), a private channel its owner's invite. Call list_granted_resources to see what is open.",
	DenyApproverView: "The person who approved this connection can no longer see this item.",
	DenyApproverEdit: "The person who approved this connection can no longer edit this item.",
	DenyNoRunner:     "The person who approved this connection has no runner role in this workspace: a workspace owner can grant it.",
	DenyInsufficient: "This tool needs a scope the connection was not granted.",
}

// Denial is a refused call.
type Denial struct {
	Code string
	Text string
}

func (d *Denial) Error() string { return d.Code + ": " + d.Text }

func deny(code string) *Denial { return &Denial{Code: code, Text: denyText[code]} }

// allowed is the live state a permitted call runs with.
type allowed struct {
	grant     Grant
	workspace string
	approver  string
	target    Target
}

// channelKinds are targets reachable by an explicit channel invite.
var channelKinds = []string{"channel", "message_channel", "record_channel"}

// CheckAccess decides one call of tool with args under grant from the
// current state, as every tools/call does: nil, a *Denial, or a failure
// to read that state.
func (s *Service) CheckAccess(ctx context.Context, g Grant, tool string, args json.RawMessage) error {
	_, err := s.check(ctx, g, tool, args)
	return err
}

func (s *Service) check(ctx context.Context, g Grant, tool string, args json.RawMessage) (*allowed, error) {
	e, ok := s.cat.tools[tool]
	if !ok {
		return nil, deny(DenyToolDisabled)
	}
	if !slices.Contains(g.Scopes, e.Scope) {
		return nil, deny(DenyInsufficient)
	}
	var t Target
	var err error
	switch {
	case e.source != nil:
		t, err = e.source.CallTarget(ctx, tool, args)
	case e.target != nil:
		t, err = e.target(ctx, args)
	}
	if err != nil {
		return nil, &Denial{Code: "invalid_arguments", Text: argsProblem(err)}
	}
	project := t.Project
	row, err := s.st.Access(ctx, AccessQuery{ConnectionID: g.ConnectionID, Tool: tool, Project: project, Channel: t.ID, InviteFrom: t.InviteFrom})
	if errors.Is(err, ErrNotFound) {
		return nil, deny(DenyRevoked)
	}
	if err != nil {
		return nil, fmt.Errorf("checking access: %w", err)
	}
	switch {
	case row.Status == StatusRevoked:
		return nil, deny(DenyRevoked)
	case row.Status != StatusConnected:
		return nil, deny(DenyPending)
	case row.ToolOff:
		return nil, deny(DenyToolDisabled)
	case row.ApproverGone:
		return nil, deny(DenyApproverView)
	}
	// Runs need the runner role the consent page promises, whatever the
	// scope says; the desktop's owner needs none.
	if e.Scope == tools.ScopeRun && !row.ApproverAdmin && !row.Runner {
		return nil, deny(DenyNoRunner)
	}
	a := &allowed{grant: g, workspace: row.Workspace, approver: row.Approver, target: t}
	if t.Kind == "" {
		return a, nil // list tools filter by granted projects themselves
	}
	if t.Workspace != "" && t.Workspace != row.Workspace || t.Workspace == "" && t.Kind != "project" {
		return nil, deny(DenyNotFound)
	}
	if !row.InProject && !(row.Invited && slices.Contains(channelKinds, t.Kind)) {
		if t.Kind == "message_channel" {
			return nil, deny(DenyNotInvited)
		}
		return nil, deny(DenyNotInProject)
	}
	need := 1
	if !e.ReadOnly {
		need = 2
	}
	if row.ApproverAdmin {
		return a, nil
	}
	if !row.ApproverKnown || row.Role < need {
		if need == 1 {
			return nil, deny(DenyApproverView)
		}
		return nil, deny(DenyApproverEdit)
	}
	return a, nil
}
