package messages

import "context"

// The rules of this package (names and text limits, a project's one
// discussion channel, idempotent posts, replies within their channel, the
// per-connection rate limit) live in Store and reach their rows only
// through the interfaces below, in plain Go types. The desktop implements
// them over its SQLite file (sqlite_*.go); the team server implements the
// same interfaces over PostgreSQL (pgmessages), and
// messagestest.RunStoreSuite checks both against the same expectations.
//
// A getter that finds no row returns an error wrapping ErrNotFound. Ids,
// sequence numbers aside, and times are made by Store.

// Backend is the storage a Store runs on.
type Backend interface {
	// Write runs f in one write transaction and commits when f returns nil;
	// an error from f rolls everything back. A post, its idempotency key and
	// the key lookup that decided to write it happen inside one Write, so a
	// retry racing the first attempt can never store a second copy.
	Write(ctx context.Context, f func(tx Tx) error) error
	// Pool returns rows whose statements each run on their own, outside any
	// transaction, each seeing the latest commit.
	Pool() Tx
}

// Tx hands out the rows of each kind inside one transaction (or, from
// Backend.Pool, outside any).
type Tx interface {
	Channels() ChannelRows
	Posts() PostRows
	Places() PlaceRows
}

// ChannelRows holds Message channels.
type ChannelRows interface {
	InsertChannel(ctx context.Context, c Channel) error
	// InsertDiscussion stores c as its project's discussion channel unless
	// the project has one already (then it does nothing): a project has
	// exactly one, whoever creates it first.
	InsertDiscussion(ctx context.Context, c Channel) error
	// Discussion returns a project's discussion channel.
	Discussion(ctx context.Context, project string) (Channel, error)
	Channel(ctx context.Context, id string) (Channel, error)
	// Channels lists a workspace's channels (project "" for all of them),
	// discussion channels first, then by name, then id.
	Channels(ctx context.Context, workspace, project string) ([]Channel, error)
	// Workspaces lists the ids of the workspaces that have a channel, sorted.
	Workspaces(ctx context.Context) ([]string, error)
}

// StoredKey is what an idempotency key of a post is bound to.
type StoredKey struct {
	ArgsHash  string // postHash of the first post
	MessageID string
}

// PostRows holds posts and their idempotency keys. Keys are scoped to a
// workspace, so a key chosen in one workspace never replays a post of
// another.
type PostRows interface {
	Key(ctx context.Context, workspace, key string) (StoredKey, error)
	InsertKey(ctx context.Context, workspace, key string, k StoredKey) error
	// InsertMessage stores m and returns its seq: increasing across the
	// store, so a reader passes the last seq it saw to get only newer posts.
	InsertMessage(ctx context.Context, m Message) (int64, error)
	Message(ctx context.Context, id string) (Message, error)
	// InChannel reports whether message id was posted in channel.
	InChannel(ctx context.Context, id, channel string) (bool, error)
	// Messages returns the newest limit posts of channel with a seq above
	// since, oldest first.
	Messages(ctx context.Context, channel string, since int64, limit int) ([]Message, error)
}

// ProjectRef is a project with its workspace.
type ProjectRef struct {
	ID        string
	Workspace string
}

// PlaceRows reads the workspaces and projects channels belong to. They are
// the notes store's (notes.Places); this package never writes them.
type PlaceRows interface {
	// ProjectWorkspace returns the workspace of project.
	ProjectWorkspace(ctx context.Context, project string) (string, error)
	// ProjectsWithoutDiscussion lists the projects that have no discussion
	// channel yet.
	ProjectsWithoutDiscussion(ctx context.Context) ([]ProjectRef, error)
	// Names returns the names of a workspace (its id when it has none) and
	// of a project ("" when there is none).
	Names(ctx context.Context, workspace, project string) (workspaceName, projectName string, err error)
	// Places lists every workspace by name, then id, then every project by
	// its workspace's id, name, id.
	Places(ctx context.Context) ([]Place, error)
}
