package connect

import (
	"context"
	"time"
)

// Store holds the endpoint's own state: people and roles, connections and
// what they open, OAuth clients, waiting authorizations, codes, tokens and
// their refresh families, sign-in links and sessions, activity and the
// rate-limit buckets. The rules — PKCE, resource indicators, rotation,
// reuse revoking a family, expiry, bounds — live in Service and reach
// their rows only through this interface. The desktop keeps them in its
// SQLite file (SQLiteStore); the team server in PostgreSQL (pgconnect),
// where every replica reads and writes the same rows.
//
// A getter that finds no row returns an error wrapping ErrNotFound. Times
// are passed in (the Service owns the clock). Secrets never reach a Store:
// tokens, codes and sessions arrive as their SHA-256 hashes.
type Store interface {
	UserRows
	ConnectionRows
	OAuthRows
	// Tokens runs f in one transaction: every row f reads through the
	// TokenTx is locked until it returns, so two redemptions of one code
	// or one refresh token (on two replicas) take turns. f's nil commits,
	// an error rolls back.
	Tokens(ctx context.Context, f func(TokenTx) error) error
	// Token reads one token (access or refresh) on every tool call.
	Token(ctx context.Context, hash string) (TokenRow, error)
	// Access reads in one round trip what a tool call depends on.
	Access(ctx context.Context, q AccessQuery) (AccessRow, error)
	InsertActivity(ctx context.Context, a Activity) error
	// RecentActivity lists a connection's ("" for all) newest lines first.
	RecentActivity(ctx context.Context, connID string, limit int) ([]Activity, error)
	// Purge drops what expired before the given times.
	Purge(ctx context.Context, p PurgeBefore) error
	Buckets
}

// UserRows are the people who approve connections and their roles.
type UserRows interface {
	// InsertUser adds u unless a user with its id exists, and reports
	// whether it did.
	InsertUser(ctx context.Context, u User, at time.Time) (bool, error)
	// UserAdmin says whether the user is an admin; ErrNotFound when there
	// is no such user.
	UserAdmin(ctx context.Context, id string) (bool, error)
	// Users lists people in the order they were added, with their roles.
	Users(ctx context.Context) ([]User, error)
	// SetRole creates or replaces user's role on (workspace, project).
	SetRole(ctx context.Context, userID string, r Role) error
	DeleteRole(ctx context.Context, userID, workspace, project string) error
	// RoleWorkspaces lists, sorted, the workspaces user holds a role in.
	RoleWorkspaces(ctx context.Context, userID string) ([]string, error)

	InsertSession(ctx context.Context, s SessionRow) error
	// Session reads a session or sign-in link of kind by its hash.
	Session(ctx context.Context, hash, kind string) (SessionRow, error)
	// TakeSession deletes a session of kind and returns it, once: of two
	// concurrent calls only one finds it.
	TakeSession(ctx context.Context, hash, kind string) (SessionRow, error)
}

// ConnectionRows are the connections and what each opens.
type ConnectionRows interface {
	InsertConnection(ctx context.Context, c ConnectionRow) error
	// Connection reads one with its projects and channel invites (in the
	// order they were added); StatusText is left to the Service.
	Connection(ctx context.Context, id string) (Connection, error)
	// ConnectionIDs lists every connection, newest first.
	ConnectionIDs(ctx context.Context) ([]string, error)
	// Offered lists the connections a consent of user may pick: every
	// pending one and the connected ones user approved; pending first,
	// newest first within each.
	Offered(ctx context.Context, user string) ([]ConnectionRow, error)
	// Carried lists what each connection Offered(user) returns holds:
	// projects (oldest first), channel invites and tools turned off.
	Carried(ctx context.Context, user string) ([]CarriedRow, error)
	// TakeOver connects connection t.ID as t says, only when it is pending
	// or already connected by t.Approver to t.Workspace, and in the same
	// transaction revokes its tokens and burns its unredeemed codes. It
	// reports whether the connection could be taken.
	TakeOver(ctx context.Context, t ConnectionRow) (bool, error)
	// Revoke marks a connection revoked; false when there is none.
	Revoke(ctx context.Context, id string, at time.Time) (bool, error)
	// AddProject and InviteChannel keep an existing row as it is.
	AddProject(ctx context.Context, connID, project string, at time.Time) error
	RemoveProject(ctx context.Context, connID, project string) (bool, error)
	InviteChannel(ctx context.Context, connID, channel, by string, at time.Time) error
	RemoveChannel(ctx context.Context, connID, channel string) (bool, error)
	// Invited says whether connID holds an invite to channel (by from, when
	// from is not "").
	Invited(ctx context.Context, connID, channel, from string) (bool, error)
	DisabledTools(ctx context.Context, connID string) ([]string, error)
	// SetDisabledTools replaces the connection's disabled tools at once.
	SetDisabledTools(ctx context.Context, connID string, tools []string) error
	// LinkChat records (or refreshes) a chat linked to a project.
	LinkChat(ctx context.Context, connID, project, label string, at time.Time) error
}

// OAuthRows are registrations, waiting authorizations and codes.
type OAuthRows interface {
	// InsertClientUnder stores c unless the registrations held would then
	// number more than maxCount or hold more than maxBytes (id, name,
	// redirect URIs and metadata, in bytes), and reports whether it did.
	// The check and the insert are one step for every replica.
	InsertClientUnder(ctx context.Context, c ClientRow, maxCount, maxBytes int) (bool, error)
	Client(ctx context.Context, id string) (ClientRow, error)

	InsertAuthRequest(ctx context.Context, a AuthRequestRow) error
	AuthRequest(ctx context.Context, id string) (AuthRequestRow, error)
	// BindAuthRequest gives a waiting request to a session, with a new CSRF
	// token.
	BindAuthRequest(ctx context.Context, id, sessionHash, csrf string) error
	DeleteAuthRequest(ctx context.Context, id string) error
	// WaitingRequests lists the requests bound to no session that expire
	// after now, newest first, at most limit, with their client's name.
	WaitingRequests(ctx context.Context, now time.Time, limit int) ([]WaitingRow, error)

	InsertCode(ctx context.Context, c CodeRow) error
}

// TokenTx is the row access of one code redemption or refresh rotation.
type TokenTx interface {
	// Code reads a code and locks it.
	Code(hash string) (CodeRow, error)
	MarkCodeUsed(hash string) error
	// Token reads a token and locks it, with its connection's status
	// ("revoked" when the connection is gone).
	Token(hash string) (TokenRow, error)
	MarkTokenUsed(hash string) error
	// RevokeFamily revokes every token of a family.
	RevokeFamily(family string) error
	InsertToken(t TokenRow) error
}

// Buckets keeps the rate-limit buckets (one per purpose and client
// address), where every process that serves the endpoint counts them.
type Buckets interface {
	// TakeBucket replaces the bucket under key by update's answer (a
	// missing bucket reads as the zero Bucket) while no other call can
	// update it.
	TakeBucket(ctx context.Context, key string, update func(Bucket) Bucket) error
	// ForgetBuckets drops buckets last used before before.
	ForgetBuckets(ctx context.Context, before time.Time) error
}

// Bucket is a token bucket: Tokens left at At.
type Bucket struct {
	Tokens float64
	At     time.Time
}

// ClientRow is a registered public client. RedirectURIs is a JSON array
// and Metadata the registration as JSON.
type ClientRow struct {
	ID, Name, RedirectURIs, Metadata string
	CreatedAt                        time.Time
}

// AuthRequestRow is an authorization request waiting for consent. Scopes
// are space-separated; State is exactly what the client sent.
type AuthRequestRow struct {
	ID, ClientID, RedirectURI, State, Challenge, Scopes, Resource string
	SessionHash, CSRF, BrowserHash                                string
	CreatedAt, ExpiresAt                                          time.Time
}

// WaitingRow is a request waiting for someone to sign in.
type WaitingRow struct {
	ID, ClientName, RedirectURI, BrowserHash string
	CreatedAt                                time.Time
}

// CodeRow is an authorization code, by hash.
type CodeRow struct {
	Hash, ClientID, ConnectionID, UserID, RedirectURI, Challenge, Scopes, Resource string
	ExpiresAt                                                                      time.Time
	Used                                                                           bool
}

// TokenRow is an access or refresh token, by hash. Family is the hash of
// the code that started it; ConnectionStatus is read, never written.
type TokenRow struct {
	Hash, Kind, Family, ClientID, ConnectionID, UserID, Scopes, Resource string
	ExpiresAt                                                            time.Time
	Used, Revoked                                                        bool
	ConnectionStatus                                                     string
}

// SessionRow is a sign-in link (kind "signin") or a browser session
// (kind "session"), by hash.
type SessionRow struct {
	Hash, UserID, Kind string
	ExpiresAt          time.Time
}

// ConnectionRow is a connection's own columns. Scopes are space-separated.
type ConnectionRow struct {
	ID, DisplayName, Assistant, Status, Workspace, Approver, ClientID, Scopes string
	CreatedAt, ConnectedAt                                                    time.Time
}

// CarriedRow is one thing a connection holds: Kind "project" (Value the
// project), "channel" or "tool" (a tool turned off).
type CarriedRow struct {
	Kind, ConnectionID, Value string
}

// AccessQuery names what one tool call touches.
type AccessQuery struct {
	ConnectionID, Tool, Project, Channel, InviteFrom string
}

// AccessRow is the live state one tool call is decided on. ErrNotFound
// when the connection is gone.
type AccessRow struct {
	Status, Workspace, Approver string
	// ToolOff: the owner turned the tool off; InProject: the project is
	// open to the connection; Invited: it holds a matching channel invite.
	ToolOff, InProject, Invited bool
	// ApproverKnown and ApproverAdmin describe the approver's user row;
	// Role is their best role's rank (viewer 1, editor 2, owner 3) on the
	// workspace or the project, 0 for none.
	ApproverKnown, ApproverAdmin bool
	Role                         int
	// Runner: the approver holds the runner role in the workspace (the
	// team server's grant); only then may the run tools start anything.
	Runner bool
	// ApproverGone: the approver no longer belongs to the connection's
	// workspace at all (the team server's members). Every call is refused,
	// list tools too, which otherwise run before any role is asked.
	ApproverGone bool
}

// PurgeBefore says, for each kind of row, before when it expired.
type PurgeBefore struct {
	Codes, AuthRequests, Sessions, Tokens, Activity time.Time
	// UnusedClients: registrations created before it that no connection,
	// token, code or waiting request refers to.
	UnusedClients time.Time
}
