package teamauth

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Workspace is one workspace as seen by one member.
type Workspace struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Role   Role   `json:"role"`
	Runner bool   `json:"runner"`
}

// Member is a person in a workspace, or an email invited and not yet
// signed in (Invited, no PersonID).
type Member struct {
	ID       string    `json:"id"`
	PersonID string    `json:"person_id,omitempty"`
	Email    string    `json:"email"`
	Name     string    `json:"name"`
	Role     Role      `json:"role"`
	Runner   bool      `json:"runner"`
	Invited  bool      `json:"invited"`
	Since    time.Time `json:"since"`
}

// Workspaces lists the workspaces person belongs to.
func (s *Service) Workspaces(ctx context.Context, personID string) ([]Workspace, error) {
	rows, err := s.db.Query(ctx, `SELECT w.id, w.name, m.role, m.runner FROM teamauth_members m
		JOIN teamauth_workspaces w ON w.id = m.workspace_id WHERE m.person_id = $1 ORDER BY w.created_at, w.id`, personID)
	if err != nil {
		return nil, fmt.Errorf("listing workspaces: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Workspace, error) {
		var w Workspace
		return w, r.Scan(&w.ID, &w.Name, &w.Role, &w.Runner)
	})
	if err != nil {
		return nil, fmt.Errorf("listing workspaces: %w", err)
	}
	return out, nil
}

func cleanName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" || len(name) > 100 || strings.ContainsAny(name, "\r\n\t") {
		return "", fmt.Errorf("%w: a workspace name is 1 to 100 characters on one line", ErrBadInput)
	}
	return name, nil
}

// CreateWorkspace makes a new workspace owned by person, who must already
// own one (the first comes from the bootstrap link).
func (s *Service) CreateWorkspace(ctx context.Context, personID, name string) (Workspace, error) {
	name, err := cleanName(name)
	if err != nil {
		return Workspace{}, err
	}
	var owns bool
	if err := s.db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM teamauth_members WHERE person_id = $1 AND role = 'owner')`,
		personID).Scan(&owns); err != nil {
		return Workspace{}, fmt.Errorf("creating a workspace: %w", err)
	}
	if !owns {
		return Workspace{}, fmt.Errorf("%w: only owners of a workspace create new ones", ErrForbidden)
	}
	return s.createWorkspace(ctx, s.db, personID, name)
}

type execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

func (s *Service) createWorkspace(ctx context.Context, q execer, personID, name string) (Workspace, error) {
	w := Workspace{ID: newID("ws_"), Name: name, Role: Owner}
	now := s.now()
	if _, err := q.Exec(ctx, `WITH w AS (INSERT INTO teamauth_workspaces (id, name, created_at) VALUES ($1, $2, $4) RETURNING id)
		INSERT INTO teamauth_members (id, workspace_id, person_id, role, created_at) SELECT $3, id, $5, 'owner', $4 FROM w`,
		w.ID, name, newID("m_"), now, personID); err != nil {
		return Workspace{}, fmt.Errorf("creating a workspace: %w", err)
	}
	return w, nil
}

// Members lists a workspace's members and invitations; any member may.
func (s *Service) Members(ctx context.Context, actorID, workspaceID string) ([]Member, error) {
	if err := s.Require(ctx, actorID, workspaceID, Read); err != nil {
		return nil, err
	}
	rows, err := s.db.Query(ctx, `SELECT m.id, coalesce(m.person_id, ''), coalesce(p.email, m.email), coalesce(p.name, ''),
			m.role, m.runner, m.person_id IS NULL, m.created_at
		FROM teamauth_members m LEFT JOIN teamauth_people p ON p.id = m.person_id
		WHERE m.workspace_id = $1 ORDER BY m.created_at, m.id`, workspaceID)
	if err != nil {
		return nil, fmt.Errorf("listing members: %w", err)
	}
	out, err := pgx.CollectRows(rows, scanMember)
	if err != nil {
		return nil, fmt.Errorf("listing members: %w", err)
	}
	return out, nil
}

func scanMember(r pgx.CollectableRow) (Member, error) {
	var m Member
	return m, r.Scan(&m.ID, &m.PersonID, &m.Email, &m.Name, &m.Role, &m.Runner, &m.Invited, &m.Since)
}

// change runs fn in a transaction holding the workspace's row lock, after
// checking the actor may manage members (read inside the lock, so an owner
// demoted a moment ago cannot act).
func (s *Service) change(ctx context.Context, actorID, workspaceID string, selfOK string, fn func(tx pgx.Tx) error) error {
	tx, err := s.db.Begin(ctx)
	if err != nil {
		return fmt.Errorf("changing members: %w", err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT 1 FROM teamauth_workspaces WHERE id = $1 FOR UPDATE`, workspaceID); err != nil {
		return fmt.Errorf("changing members: %w", err)
	}
	d, err := membership(ctx, tx, actorID, workspaceID)
	if err != nil {
		return err
	}
	if !d.Member {
		return d.Err()
	}
	decide(&d, ManageMembers)
	if !d.Allowed && !(d.Member && selfOK != "" && selfOK == actorID) {
		return d.Err()
	}
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("changing members: %w", err)
	}
	return nil
}

// Invitation is what an owner asks for when inviting.
type Invitation struct {
	Email  string `json:"email"`
	Role   Role   `json:"role"`
	Runner bool   `json:"runner"`
}

// Invite adds email to the workspace with role. A person who already
// signed in with that verified email becomes a member at once; anyone else
// on their first sign-in.
func (s *Service) Invite(ctx context.Context, actorID, workspaceID string, in Invitation) (Member, error) {
	addr, err := mail.ParseAddress(strings.TrimSpace(in.Email))
	if err != nil || len(addr.Address) > 254 {
		return Member{}, fmt.Errorf("%w: %q is not an email address: pass the address your provider knows them by", ErrBadInput, in.Email)
	}
	if err := checkGrant(in.Role, in.Runner); err != nil {
		return Member{}, err
	}
	m := Member{ID: newID("m_"), Email: strings.ToLower(addr.Address), Role: in.Role, Runner: in.Runner, Since: s.now()}
	err = s.change(ctx, actorID, workspaceID, "", func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `SELECT id, name FROM teamauth_people WHERE email = $1 AND email_verified
			ORDER BY signed_in_at DESC LIMIT 1`, m.Email).Scan(&m.PersonID, &m.Name)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("inviting: %w", err)
		}
		m.Invited = m.PersonID == ""
		var pid *string
		if !m.Invited {
			pid = &m.PersonID
		}
		_, err = tx.Exec(ctx, `INSERT INTO teamauth_members (id, workspace_id, person_id, email, role, runner, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, m.ID, workspaceID, pid, m.Email, m.Role, m.Runner, m.Since)
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.Code == "23505" {
			return fmt.Errorf("%w: %s is already a member or invited: change their role instead", ErrConflict, m.Email)
		}
		if err != nil {
			return fmt.Errorf("inviting: %w", err)
		}
		return nil
	})
	return m, err
}

func checkGrant(role Role, runner bool) error {
	if !role.valid() {
		return fmt.Errorf("%w: role %q: pick owner, editor or viewer", ErrBadInput, role)
	}
	if runner && role == Viewer {
		return fmt.Errorf("%w: a viewer cannot hold the runner role: make them an editor first", ErrBadInput)
	}
	return nil
}

// Change is a new role and/or runner grant; nil fields stay as they are.
type Change struct {
	Role   *Role `json:"role,omitempty"`
	Runner *bool `json:"runner,omitempty"`
}

// SetRole changes a member's role or runner grant; owners only. A member
// made a viewer loses the runner role; the last owner stays an owner.
func (s *Service) SetRole(ctx context.Context, actorID, workspaceID, memberID string, c Change) (Member, error) {
	var out Member
	err := s.change(ctx, actorID, workspaceID, "", func(tx pgx.Tx) error {
		m, err := memberIn(ctx, tx, workspaceID, memberID)
		if err != nil {
			return err
		}
		role, runner := m.Role, m.Runner
		if c.Role != nil {
			role = *c.Role
			if role == Viewer && c.Runner == nil {
				runner = false
			}
		}
		if c.Runner != nil {
			runner = *c.Runner
		}
		if err := checkGrant(role, runner); err != nil {
			return err
		}
		if m.Role == Owner && role != Owner && !m.Invited {
			if err := s.keepAnOwner(ctx, tx, workspaceID, "demote"); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE teamauth_members SET role = $3, runner = $4 WHERE workspace_id = $1 AND id = $2`,
			workspaceID, memberID, role, runner); err != nil {
			return fmt.Errorf("changing the role: %w", err)
		}
		m.Role, m.Runner = role, runner
		out = m
		return nil
	})
	return out, err
}

// RemoveMember removes a member or an invitation: owners remove anyone,
// any member removes themselves, the last owner nobody removes.
func (s *Service) RemoveMember(ctx context.Context, actorID, workspaceID, memberID string) error {
	var self string
	if err := s.db.QueryRow(ctx, `SELECT coalesce(person_id, '') FROM teamauth_members WHERE workspace_id = $1 AND id = $2`,
		workspaceID, memberID).Scan(&self); err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("removing a member: %w", err)
	}
	if self != actorID {
		self = ""
	}
	return s.change(ctx, actorID, workspaceID, self, func(tx pgx.Tx) error {
		m, err := memberIn(ctx, tx, workspaceID, memberID)
		if err != nil {
			return err
		}
		if m.Role == Owner && !m.Invited {
			if err := s.keepAnOwner(ctx, tx, workspaceID, "remove"); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `DELETE FROM teamauth_members WHERE workspace_id = $1 AND id = $2`, workspaceID, memberID); err != nil {
			return fmt.Errorf("removing a member: %w", err)
		}
		return nil
	})
}

// keepAnOwner refuses a change that takes away the only signed-in owner.
func (s *Service) keepAnOwner(ctx context.Context, tx pgx.Tx, workspaceID, verb string) error {
	var owners int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM teamauth_members WHERE workspace_id = $1 AND role = 'owner' AND person_id IS NOT NULL`,
		workspaceID).Scan(&owners); err != nil {
		return fmt.Errorf("counting owners: %w", err)
	}
	if owners <= 1 {
		return fmt.Errorf("%w: cannot %s the last owner: make another member owner first", ErrLastOwner, verb)
	}
	return nil
}

// memberIn reads one member of workspace; a member id of another
// workspace is ErrNoMember, like an id that does not exist.
func memberIn(ctx context.Context, tx pgx.Tx, workspaceID, memberID string) (Member, error) {
	rows, err := tx.Query(ctx, `SELECT m.id, coalesce(m.person_id, ''), coalesce(p.email, m.email), coalesce(p.name, ''),
			m.role, m.runner, m.person_id IS NULL, m.created_at
		FROM teamauth_members m LEFT JOIN teamauth_people p ON p.id = m.person_id
		WHERE m.workspace_id = $1 AND m.id = $2`, workspaceID, memberID)
	if err != nil {
		return Member{}, fmt.Errorf("reading a member: %w", err)
	}
	m, err := pgx.CollectExactlyOneRow(rows, scanMember)
	if errors.Is(err, pgx.ErrNoRows) {
		return Member{}, fmt.Errorf("%w: %s", ErrNoMember, memberID)
	}
	if err != nil {
		return Member{}, fmt.Errorf("reading a member: %w", err)
	}
	return m, nil
}
