// Package teamconnect fits the Connected endpoint (backend/connect) to the
// team server: the people who approve a consent are those signed in with
// the team's OpenID Connect provider (backend/teamauth), and what their
// assistants may do follows teamauth's workspaces and roles on every call.
//
// Why roles are read from teamauth's tables rather than copied into
// connect's: a copy must be kept in step by every change of members (an
// invite, a new role, a removal, on any replica), and a copy that missed
// one would keep a removed person's assistant working. Reading
// teamauth_members in the same query that reads the connection costs no
// extra round trip and cannot drift: a person removed from a workspace,
// or made a viewer, is refused on the next call of an assistant they
// connected. connect_roles stays empty on the team server.
//
// It is linked only into the team server (it imports pgx); the desktop
// keeps connect's own roles in its SQLite file.
package teamconnect

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/connect/pgconnect"
	"github.com/osfoundry/desktop/backend/teamauth"
)

// People is connect.People over teamauth's web sessions: a signed-out
// browser goes to the provider's sign-in and comes back to the consent it
// was on.
type People struct{ Auth *teamauth.Service }

var _ connect.People = People{}

// Approver is the person signed in on r's browser.
func (p People) Approver(r *http.Request) (connect.Approver, bool) {
	person, ok := p.Auth.Person(r)
	key := p.Auth.SessionKey(r)
	if !ok || key == "" {
		return connect.Approver{}, false
	}
	name := person.Name
	if name == "" {
		name = person.Email
	}
	return connect.Approver{ID: person.ID, Name: name, Session: key}, true
}

// SignInURL is teamauth's sign-in, back to continueAt afterwards; an
// assistant's page on another site that sent the browser here lands first
// (the session cookie is SameSite=Strict and was left out).
func (p People) SignInURL(r *http.Request, continueAt string) string {
	return p.Auth.SignInURLFor(r, continueAt)
}

// Store is pgconnect's store with the approver's standing read from
// teamauth's members instead of connect's roles.
type Store struct {
	*pgconnect.Store
	pool *pgxpool.Pool
}

var _ connect.Store = Store{}

// NewStore wraps st, which lives in pool's database beside teamauth's tables.
func NewStore(st *pgconnect.Store, pool *pgxpool.Pool) Store { return Store{Store: st, pool: pool} }

// accessQuery is pgconnect's, with the approver's role from
// teamauth_members (no project roles there: a member's role covers every
// project of the workspace). Nobody is an admin of every workspace on the
// team server, the local owner of connect included.
const accessQuery = `SELECT c.status, c.workspace, c.approver,
	EXISTS (SELECT 1 FROM connect_disabled_tools d WHERE d.connection_id = c.id AND d.tool = $2),
	EXISTS (SELECT 1 FROM connect_projects p WHERE p.connection_id = c.id AND p.project = $3),
	EXISTS (SELECT 1 FROM connect_channel_invites i WHERE i.connection_id = c.id AND i.channel = $4
		AND ($5 = '' OR i.invited_by = $5)),
	COALESCE((SELECT CASE m.role WHEN 'owner' THEN 3 WHEN 'editor' THEN 2 WHEN 'viewer' THEN 1 ELSE 0 END
		FROM teamauth_members m WHERE m.person_id = c.approver AND m.workspace_id = c.workspace), 0),
	COALESCE((SELECT m.runner AND m.role <> 'viewer'
		FROM teamauth_members m WHERE m.person_id = c.approver AND m.workspace_id = c.workspace), false)
FROM connect_connections c WHERE c.id = $1`

// Access reads, in one round trip, what a call depends on.
func (s Store) Access(ctx context.Context, q connect.AccessQuery) (connect.AccessRow, error) {
	var a connect.AccessRow
	if !storable(q.ConnectionID, q.Tool) {
		return a, fmt.Errorf("connection: %w", connect.ErrNotFound)
	}
	if !storable(q.Project) {
		q.Project = ""
	}
	if !storable(q.Channel, q.InviteFrom) {
		q.Channel, q.InviteFrom = "", ""
	}
	err := s.pool.QueryRow(ctx, accessQuery, q.ConnectionID, q.Tool, q.Project, q.Channel, q.InviteFrom).
		Scan(&a.Status, &a.Workspace, &a.Approver, &a.ToolOff, &a.InProject, &a.Invited, &a.Role, &a.Runner)
	if errors.Is(err, pgx.ErrNoRows) {
		return a, fmt.Errorf("connection: %w", connect.ErrNotFound)
	}
	if err != nil {
		return a, fmt.Errorf("reading the connection and its approver's role: %w", err)
	}
	a.ApproverKnown = a.Role > 0
	// A connection that is not connected yet has no approver; once it
	// has one, leaving the workspace ends everything it may do.
	a.ApproverGone = a.Status == connect.StatusConnected && a.Role == 0
	return a, nil
}

// RoleWorkspaces lists, sorted, the workspaces a person belongs to: those
// the consent page offers them.
func (s Store) RoleWorkspaces(ctx context.Context, userID string) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT workspace_id FROM teamauth_members WHERE person_id = $1 ORDER BY workspace_id`, userID)
	if err != nil {
		return nil, fmt.Errorf("listing a person's workspaces: %w", err)
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// storable: PostgreSQL refuses NUL and invalid UTF-8 in a parameter, so
// such a value names nothing.
func storable(vs ...string) bool {
	for _, v := range vs {
		if !utf8.ValidString(v) || strings.IndexByte(v, 0) >= 0 {
			return false
		}
	}
	return true
}

// ConnectionsOf lists, newest first, the connections person approved:
// the assistants their page at / shows them.
func (s Store) ConnectionsOf(ctx context.Context, personID string) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT id FROM connect_connections WHERE approver = $1 ORDER BY created_at DESC, id`, personID)
	if err != nil {
		return nil, fmt.Errorf("listing a person's connections: %w", err)
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}
