// Package connect is the Connected agents feature: an OAuth-protected MCP
// endpoint through which outside assistants (a Claude chat, ChatGPT, Codex
// CLI, Claude Code, any MCP client) read and change Notes, knowledge and
// Records, and the owner-side Service that manages those connections.
//
// The token an assistant holds is small (who, which connection, which
// scopes, which resource). Everything else — connection status, workspace,
// project membership, the item's current project, channel invites, the
// tools the owner left on, the approver's current role — is re-read from
// the database on every call, so removing or moving something takes effect
// on the very next call, even with an unexpired token.
package connect

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/tools"
)

// Target is the item a tool call touches. Kind is "" for list tools that
// touch no single item (they filter by granted projects themselves).
type Target struct {
	Kind      string `json:"kind"`
	ID        string `json:"id"`
	Workspace string `json:"workspace"`
	Project   string `json:"project"`
	// InviteFrom: only an invite by this person opens the item (a private
	// Message channel and its owner). "" = any invite counts.
	InviteFrom string `json:"inviteFrom,omitempty"`
}

// Resource is one item of a project, as list_project_resources shows it.
type Resource struct {
	Kind    string `json:"kind"`
	ID      string `json:"id"`
	Title   string `json:"title"`
	Project string `json:"project"`
	// NeedsInvite: listed only for a connection invited to it (a Message
	// channel other than the project's discussion channel); InviteFrom
	// narrows that to one person's invite (a private channel's owner).
	NeedsInvite bool   `json:"-"`
	InviteFrom  string `json:"-"`
}

// Workspace names a workspace for the consent page.
type Workspace struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// ToolSource offers tools and says which item a call of one of them
// touches. CallTarget returns an error only for arguments it cannot read;
// an unknown item is a Target with an empty Workspace.
type ToolSource interface {
	Tools() []tools.Tool
	CallTarget(ctx context.Context, tool string, args json.RawMessage) (Target, error)
}

// Resources is what the endpoint serves: the Notes / knowledge / Records
// store (see the notesres adapter).
type Resources interface {
	ToolSource
	ProjectResources(ctx context.Context, projectID string) ([]Resource, error)
}

// WorkspaceLister is optionally implemented by Resources so the consent
// page can name workspaces; without it the page lists the workspaces the
// signed-in person holds a role in, by id.
type WorkspaceLister interface {
	Workspaces(ctx context.Context) ([]Workspace, error)
}

// Runner offers the run tools (request_session_run, run_graph_session,
// cancel_graph_run, scope osfoundry:run). They are registered only when a
// Runner is configured, so a client never sees a tool that always fails.
type Runner = ToolSource

// Options configure a Service.
type Options struct {
	Resources Resources // required
	Runner    Runner    // optional
	// Extra are further tool sources (the message store), checked on every
	// call like the others.
	Extra []ToolSource
	// Now is the clock (tests move it to expire codes and tokens).
	Now func() time.Time
	// Repos finds a project's git repository (its Local Folder), where an
	// approved change set applies; without it propose_change_set says so.
	Repos RepoFolder
}

// Service owns the connect tables. It is safe for concurrent use.
type Service struct {
	db     *sql.DB
	res    Resources
	runner Runner
	extra  []ToolSource
	now    func() time.Time
	cat    *catalogue
	q      hotQueries

	repos RepoFolder
	// applying lets one change set apply at a time, so two clicks on
	// Approve cannot race for the same branch.
	applying sync.Mutex
}

// hotQueries run on every tool call; they are prepared once.
type hotQueries struct {
	access, token, activity *sql.Stmt
}

func (s *Service) prepare(ctx context.Context) error {
	for _, p := range []struct {
		dst **sql.Stmt
		sql string
	}{{&s.q.access, accessQuery}, {&s.q.token, tokenQuery}, {&s.q.activity, activityInsert}} {
		st, err := s.db.PrepareContext(ctx, p.sql)
		if err != nil {
			return fmt.Errorf("preparing connect queries: %w", err)
		}
		*p.dst = st
	}
	return nil
}

// OwnerID is the local owner: the person at this machine, admin of every
// workspace. Other people are added with AddUser and given roles.
const OwnerID = "owner"

// Errors callers branch on.
var (
	ErrNotFound    = errors.New("not found")
	ErrBadRole     = errors.New("role must be viewer, editor or owner")
	ErrBadInput    = errors.New("invalid input")
	ErrNotPending  = errors.New("proposal was already decided")
	ErrNoResources = errors.New("connect needs a Resources store")
)

// Open migrates the connect tables and returns the Service.
func Open(ctx context.Context, db *sql.DB, opts Options) (*Service, error) {
	if opts.Resources == nil {
		return nil, ErrNoResources
	}
	if err := store.Migrate(ctx, db, Component, migrations); err != nil {
		return nil, fmt.Errorf("opening connect store: %w", err)
	}
	s := &Service{db: db, res: opts.Resources, runner: opts.Runner, extra: opts.Extra, now: opts.Now, repos: opts.Repos}
	if s.now == nil {
		s.now = time.Now
	}
	cat, err := newCatalogue(s)
	if err != nil {
		return nil, fmt.Errorf("building the tool catalogue: %w", err)
	}
	s.cat = cat
	if err := s.prepare(ctx); err != nil {
		return nil, err
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO connect_users (id, name, admin, created_at)
		SELECT ?, 'Owner', 1, ? WHERE NOT EXISTS (SELECT 1 FROM connect_users WHERE id = ?)`,
		OwnerID, s.ms(), OwnerID); err != nil {
		return nil, fmt.Errorf("creating the local owner: %w", err)
	}
	return s, nil
}

func (s *Service) ms() int64 { return s.now().UnixMilli() }

// newID returns a short random id with a readable prefix.
func newID(prefix string) string {
	var b [9]byte
	rand.Read(b[:])
	return prefix + "_" + hex.EncodeToString(b[:])
}

// newSecret returns 256 random bits, URL-safe.
func newSecret(prefix string) string { return prefix + rand.Text() + rand.Text() }

// hashSecret is how tokens, codes and sessions are stored: a leaked
// database gives no usable credential.
func hashSecret(secret string) string {
	h := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(h[:])
}

// User is a person who can approve connections.
type User struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Admin bool   `json:"admin"`
	Roles []Role `json:"roles"`
}

// Role is a person's role on a workspace (Project "") or on one project.
type Role struct {
	Workspace string `json:"workspace"`
	Project   string `json:"project"`
	Role      string `json:"role"`
}

var roleRank = map[string]int{"viewer": 1, "editor": 2, "owner": 3}

// AddUser creates a person (not an admin) and returns them.
func (s *Service) AddUser(ctx context.Context, name string) (User, error) {
	if name == "" {
		return User{}, fmt.Errorf("adding user: %w: a name is required", ErrBadInput)
	}
	u := User{ID: newID("usr"), Name: name, Roles: []Role{}}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO connect_users (id, name, admin, created_at) VALUES (?, ?, 0, ?)`,
		u.ID, name, s.ms()); err != nil {
		return User{}, fmt.Errorf("adding user: %w", err)
	}
	return u, nil
}

// SetRole gives user a role on workspace (project "") or on a project of
// it; role "" removes the role. Effective on the next tool call.
func (s *Service) SetRole(ctx context.Context, userID, workspace, project, role string) error {
	if role == "" {
		_, err := s.db.ExecContext(ctx, `DELETE FROM connect_roles WHERE user_id = ? AND workspace = ? AND project = ?`,
			userID, workspace, project)
		if err != nil {
			return fmt.Errorf("removing role: %w", err)
		}
		return nil
	}
	if roleRank[role] == 0 {
		return fmt.Errorf("setting role %q: %w", role, ErrBadRole)
	}
	if err := s.userExists(ctx, userID); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO connect_roles (user_id, workspace, project, role) VALUES (?, ?, ?, ?)
		ON CONFLICT (user_id, workspace, project) DO UPDATE SET role = excluded.role`, userID, workspace, project, role)
	if err != nil {
		return fmt.Errorf("setting role: %w", err)
	}
	return nil
}

func (s *Service) userExists(ctx context.Context, id string) error {
	var one int
	err := s.db.QueryRowContext(ctx, `SELECT 1 FROM connect_users WHERE id = ?`, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("user %q: %w (list users with `osfoundry connections users`)", id, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("looking up user: %w", err)
	}
	return nil
}

// Users lists people with their roles.
func (s *Service) Users(ctx context.Context) ([]User, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, name, admin FROM connect_users ORDER BY created_at, id`)
	if err != nil {
		return nil, fmt.Errorf("listing users: %w", err)
	}
	var out []User
	idx := map[string]int{}
	for rows.Next() {
		var u User
		if err := rows.Scan(&u.ID, &u.Name, &u.Admin); err != nil {
			rows.Close()
			return nil, fmt.Errorf("listing users: %w", err)
		}
		u.Roles = []Role{}
		idx[u.ID] = len(out)
		out = append(out, u)
	}
	rows.Close()
	rows, err = s.db.QueryContext(ctx, `SELECT user_id, workspace, project, role FROM connect_roles ORDER BY workspace, project`)
	if err != nil {
		return nil, fmt.Errorf("listing roles: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var uid string
		var r Role
		if err := rows.Scan(&uid, &r.Workspace, &r.Project, &r.Role); err != nil {
			return nil, fmt.Errorf("listing roles: %w", err)
		}
		if i, ok := idx[uid]; ok {
			out[i].Roles = append(out[i].Roles, r)
		}
	}
	return out, rows.Err()
}

// workspacesFor lists the workspaces user may connect: every workspace for
// an admin (when Resources can list them), else those they hold a role in.
func (s *Service) workspacesFor(ctx context.Context, userID string) ([]Workspace, error) {
	var admin bool
	if err := s.db.QueryRowContext(ctx, `SELECT admin FROM connect_users WHERE id = ?`, userID).Scan(&admin); err != nil {
		return nil, fmt.Errorf("looking up user: %w", err)
	}
	var all []Workspace
	if wl, ok := s.res.(WorkspaceLister); ok {
		ws, err := wl.Workspaces(ctx)
		if err != nil {
			return nil, fmt.Errorf("listing workspaces: %w", err)
		}
		all = ws
	}
	if admin && all != nil {
		return all, nil
	}
	names := map[string]string{}
	for _, w := range all {
		names[w.ID] = w.Name
	}
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT workspace FROM connect_roles WHERE user_id = ? ORDER BY workspace`, userID)
	if err != nil {
		return nil, fmt.Errorf("listing workspaces: %w", err)
	}
	defer rows.Close()
	var out []Workspace
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("listing workspaces: %w", err)
		}
		name := names[id]
		if name == "" {
			name = id
		}
		out = append(out, Workspace{ID: id, Name: name})
	}
	return out, rows.Err()
}
