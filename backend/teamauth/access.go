package teamauth

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Role is a member's standing in a workspace.
type Role string

const (
	Owner  Role = "owner"  // everything, including members and roles
	Editor Role = "editor" // reads and changes the workspace's content
	Viewer Role = "viewer" // reads only
)

func (r Role) valid() bool { return r == Owner || r == Editor || r == Viewer }

// Action is something a person asks to do in a workspace.
type Action string

const (
	Read          Action = "read"           // see notes, records, channels, members
	Write         Action = "write"          // change them
	StartRun      Action = "start_run"      // start a run (needs the runner role)
	ManageMembers Action = "manage_members" // invite, remove, change roles and approvers
)

func (a Action) valid() bool {
	return a == Read || a == Write || a == StartRun || a == ManageMembers
}

// Errors a check or a change of members returns; callers branch with
// errors.Is, the wrapped message says why and what to do.
var (
	// ErrNotMember: the person does not belong to the workspace, or the
	// workspace does not exist (the two read the same, so ids of other
	// workspaces reveal nothing). HTTP 404.
	ErrNotMember = errors.New("no such workspace for you")
	// ErrForbidden: a member whose role does not allow the action. HTTP 403.
	ErrForbidden = errors.New("not allowed")
	// ErrNoMember: no such member in this workspace. HTTP 404.
	ErrNoMember = errors.New("no such member in this workspace")
	// ErrLastOwner: the change would leave the workspace without an owner. HTTP 409.
	ErrLastOwner = errors.New("a workspace keeps at least one owner")
	// ErrConflict: the email is already a member or invited. HTTP 409.
	ErrConflict = errors.New("already a member")
	// ErrBadInput: the request itself is wrong. HTTP 400.
	ErrBadInput = errors.New("bad request")
)

// Decision is the answer to a check, with the reason a refusal can show.
type Decision struct {
	Allowed bool   `json:"allowed"`
	Member  bool   `json:"member"`
	Role    Role   `json:"role,omitempty"`
	Runner  bool   `json:"runner"`
	Reason  string `json:"reason"`
}

// Err is nil when allowed, else ErrNotMember or ErrForbidden with the reason.
func (d Decision) Err() error {
	switch {
	case d.Allowed:
		return nil
	case !d.Member:
		return fmt.Errorf("%w: %s", ErrNotMember, d.Reason)
	}
	return fmt.Errorf("%w: %s", ErrForbidden, d.Reason)
}

// querier is a pool or a transaction.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// membership reads person's role in workspace now; there is no cache, so
// a removal or a new role counts from the next call on.
func membership(ctx context.Context, q querier, personID, workspaceID string) (Decision, error) {
	d := Decision{}
	err := q.QueryRow(ctx, `SELECT role, runner FROM teamauth_members WHERE workspace_id = $1 AND person_id = $2`,
		workspaceID, personID).Scan(&d.Role, &d.Runner)
	if errors.Is(err, pgx.ErrNoRows) {
		d.Reason = "you are not a member of this workspace: ask one of its owners to invite you"
		return d, nil
	}
	if err != nil {
		return d, fmt.Errorf("reading the membership: %w", err)
	}
	d.Member = true
	return d, nil
}

// Can says whether person may do act in workspace, reading their role now.
// The error is only for a database that cannot answer.
func (s *Service) Can(ctx context.Context, personID, workspaceID string, act Action) (Decision, error) {
	d, err := membership(ctx, s.db, personID, workspaceID)
	if err != nil || !d.Member {
		return d, err
	}
	decide(&d, act)
	return d, nil
}

// Require is Can as an error: nil when allowed, else Decision.Err.
func (s *Service) Require(ctx context.Context, personID, workspaceID string, act Action) error {
	d, err := s.Can(ctx, personID, workspaceID, act)
	if err != nil {
		return err
	}
	return d.Err()
}

func decide(d *Decision, act Action) {
	switch act {
	case Read:
		d.Allowed, d.Reason = true, "members read"
	case Write:
		d.Allowed = d.Role == Owner || d.Role == Editor
		d.Reason = pick(d.Allowed, string(d.Role)+"s change content", "viewers read only: ask an owner to make you an editor")
	case StartRun:
		d.Allowed = d.Runner && d.Role != Viewer
		switch {
		case d.Allowed:
			d.Reason = "holds the runner role"
		case d.Role == Viewer:
			d.Reason = "viewers cannot start runs: ask an owner to make you an editor with the runner role"
		default:
			d.Reason = "starting runs needs the runner role: ask an owner to grant it"
		}
	case ManageMembers:
		d.Allowed = d.Role == Owner
		d.Reason = pick(d.Allowed, "owners manage members", "only owners manage members and roles")
	default:
		d.Reason = fmt.Sprintf("unknown action %q", act)
	}
}

// CanApprove says whether person may approve proposals in project. The
// project's approvers decide; a project with none is approved by owners.
// Viewers never approve.
func (s *Service) CanApprove(ctx context.Context, personID, workspaceID, project string) (Decision, error) {
	d, err := membership(ctx, s.db, personID, workspaceID)
	if err != nil || !d.Member {
		return d, err
	}
	var listed, named bool
	err = s.db.QueryRow(ctx, `SELECT count(*) > 0, coalesce(bool_or(m.person_id = $3), false)
		FROM teamauth_approvers a JOIN teamauth_members m ON m.id = a.member_id
		WHERE a.workspace_id = $1 AND a.project = $2`, workspaceID, project, personID).Scan(&listed, &named)
	if err != nil {
		return d, fmt.Errorf("reading the approvers of %s: %w", project, err)
	}
	switch {
	case d.Role == Viewer:
		d.Reason = "viewers cannot approve: ask an owner to make you an editor and an approver of this project"
	case named:
		d.Allowed, d.Reason = true, "an approver of this project"
	case !listed && d.Role == Owner:
		d.Allowed, d.Reason = true, "the project names no approvers, so owners approve"
	case listed:
		d.Reason = "not an approver of this project: ask an owner to add you"
	default:
		d.Reason = "the project names no approvers, so only owners approve"
	}
	return d, nil
}

func pick(ok bool, yes, no string) string {
	if ok {
		return yes
	}
	return no
}
