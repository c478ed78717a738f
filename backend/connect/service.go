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
	// PullRequests opens an approved propose_pull_request on the
	// repository's forge; without it the proposal says it cannot.
	PullRequests PullRequests
	// Imports writes an approved propose_file_import into a Note or
	// knowledge base; without it the proposal says it cannot.
	Imports FileImports
	// Proposals keeps the proposals. Open defaults it to the SQLite file's
	// table; New requires it (the team server passes pgproposals).
	Proposals ProposalRows
}

// Service owns the endpoint's rules over a Store. It is safe for
// concurrent use, also by several processes sharing one Store.
type Service struct {
	st     Store
	res    Resources
	runner Runner
	extra  []ToolSource
	now    func() time.Time
	cat    *catalogue

	repos     RepoFolder
	prs       PullRequests
	imports   FileImports
	proposals ProposalRows
	// applying lets one change set apply at a time, so two clicks on
	// Approve cannot race for the same branch.
	applying sync.Mutex
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

// Open migrates the connect tables in the desktop's SQLite file and
// returns the Service over them (proposals too, unless opts says where).
func Open(ctx context.Context, db *sql.DB, opts Options) (*Service, error) {
	if opts.Resources == nil {
		return nil, ErrNoResources
	}
	st, err := OpenSQLite(ctx, db)
	if err != nil {
		return nil, err
	}
	if opts.Proposals == nil {
		opts.Proposals = SQLiteProposals(db)
	}
	return New(ctx, st, opts)
}

// ErrNoProposals: New was given no Options.Proposals.
var ErrNoProposals = errors.New("connect needs a proposals store (Options.Proposals)")

// New returns the Service over st, which holds the endpoint's state: the
// desktop's SQLite file (OpenSQLite) or the team server's PostgreSQL
// (pgconnect.Open), where every replica built with New over the same
// database serves the same connections, codes, tokens and limits. It
// creates the local owner (OwnerID) when missing.
func New(ctx context.Context, st Store, opts Options) (*Service, error) {
	if opts.Resources == nil {
		return nil, ErrNoResources
	}
	if opts.Proposals == nil {
		return nil, ErrNoProposals
	}
	s := &Service{st: st, res: opts.Resources, runner: opts.Runner, extra: opts.Extra, now: opts.Now, repos: opts.Repos,
		prs: opts.PullRequests, imports: opts.Imports, proposals: opts.Proposals}
	if s.now == nil {
		s.now = time.Now
	}
	cat, err := newCatalogue(s)
	if err != nil {
		return nil, fmt.Errorf("building the tool catalogue: %w", err)
	}
	s.cat = cat
	if _, err := st.InsertUser(ctx, User{ID: OwnerID, Name: "Owner", Admin: true}, s.now()); err != nil {
		return nil, fmt.Errorf("creating the local owner: %w", err)
	}
	return s, nil
}

func (s *Service) ms() int64 { return s.now().UnixMilli() }

// expired says whether a time a Store kept is past, to the millisecond
// (what both stores keep).
func (s *Service) expired(at time.Time) bool { return s.ms() > at.UnixMilli() }

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
	if _, err := s.st.InsertUser(ctx, u, s.now()); err != nil {
		return User{}, fmt.Errorf("adding user: %w", err)
	}
	return u, nil
}

// SetRole gives user a role on workspace (project "") or on a project of
// it; role "" removes the role. Effective on the next tool call.
func (s *Service) SetRole(ctx context.Context, userID, workspace, project, role string) error {
	if role == "" {
		return s.st.DeleteRole(ctx, userID, workspace, project)
	}
	if roleRank[role] == 0 {
		return fmt.Errorf("setting role %q: %w", role, ErrBadRole)
	}
	if err := s.userExists(ctx, userID); err != nil {
		return err
	}
	return s.st.SetRole(ctx, userID, Role{Workspace: workspace, Project: project, Role: role})
}

func (s *Service) userExists(ctx context.Context, id string) error {
	_, err := s.st.UserAdmin(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return fmt.Errorf("user %q: %w (list users with `osfoundry connections users`)", id, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("looking up user: %w", err)
	}
	return nil
}

// Users lists people with their roles.
func (s *Service) Users(ctx context.Context) ([]User, error) { return s.st.Users(ctx) }

// EnsureUser adds a person (not an admin) under an id another service
// gave them, unless they are known: the team server calls it for people
// who sign in with OpenID Connect before giving them roles.
func (s *Service) EnsureUser(ctx context.Context, id, name string) error {
	if id == "" {
		return fmt.Errorf("adding user: %w: an id is required", ErrBadInput)
	}
	if name == "" {
		name = id
	}
	if _, err := s.st.InsertUser(ctx, User{ID: id, Name: name, Roles: []Role{}}, s.now()); err != nil {
		return fmt.Errorf("adding user %q: %w", id, err)
	}
	return nil
}

// workspacesFor lists the workspaces user may connect: every workspace for
// an admin (when Resources can list them), else those they hold a role in.
func (s *Service) workspacesFor(ctx context.Context, userID string) ([]Workspace, error) {
	admin, err := s.st.UserAdmin(ctx, userID)
	if err != nil {
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
	ids, err := s.st.RoleWorkspaces(ctx, userID)
	if err != nil {
		return nil, fmt.Errorf("listing workspaces: %w", err)
	}
	var out []Workspace
	for _, id := range ids {
		name := names[id]
		if name == "" {
			name = id
		}
		out = append(out, Workspace{ID: id, Name: name})
	}
	return out, nil
}
