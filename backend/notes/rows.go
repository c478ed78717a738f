package notes

import (
	"context"
	"time"
)

// The rules of this package (versioned compare-and-swap, idempotency keys,
// validation, conflict results) live in the resource services — Notes,
// Records, Knowledge, Drafts, Places — and reach their
// rows only through the interfaces below, in plain Go types. The desktop
// implements them over its SQLite file (sqlite_*.go); the team server
// implements the same interfaces over PostgreSQL (pgnotes), and
// notestest.RunStoreSuite checks both against the same expectations.
//
// A getter that finds no row returns an error wrapping ErrNotFound. Times
// are passed in (the services own the clock) and stored with full
// precision in UTC. Versions are computed by the services; an
// …IfVersion method writes only when the stored version still equals the
// one given and reports whether it did.

// Backend is the storage the services run on.
type Backend interface {
	// Write runs f in one write transaction and commits when f returns nil;
	// an error from f rolls everything back. The idempotency lookup, the
	// version compare and the write of one guarded call happen inside one
	// Write, so no other writer can slip in between compare and update.
	// f may run more than once (a server engine re-runs a transaction its
	// concurrency control refused), so it must set everything it hands
	// out anew on each run.
	Write(ctx context.Context, f func(tx Tx) error) error
	// Snapshot runs f in one read-only transaction: every read sees the
	// same committed state (a Note's version matches its tabs).
	Snapshot(ctx context.Context, f func(tx Tx) error) error
	// Pool returns rows whose statements each run on their own, outside
	// any transaction, each seeing the latest commit.
	Pool() Tx
}

// Tx hands out the rows of each resource inside one transaction (or, from
// Backend.Pool, outside any).
type Tx interface {
	Keys() KeyRows
	Places() PlaceRows
	Notes() NoteRows
	Records() RecordRows
	Knowledge() KnowledgeRows
	Drafts() DraftRows
}

// StoredKey is the first result of a guarded write, kept under its
// idempotency key.
type StoredKey struct {
	Tool     string
	ArgsHash string // intentHash of the arguments
	Result   string // the result body as JSON
}

// KeyRows keeps idempotency keys, scoped to a workspace so a key chosen in
// one workspace can never replay a result into another.
type KeyRows interface {
	Key(ctx context.Context, workspace, key string) (StoredKey, error)
	InsertKey(ctx context.Context, workspace, key string, k StoredKey, now time.Time) error
}

// PlaceRows holds workspaces and projects, and where each Note, knowledge
// base and Record channel sits in them.
type PlaceRows interface {
	InsertWorkspace(ctx context.Context, w Workspace, now time.Time) error
	// Workspaces lists every workspace by name, then id.
	Workspaces(ctx context.Context) ([]Workspace, error)
	// WorkspaceExists returns nil, or an error wrapping ErrNotFound.
	WorkspaceExists(ctx context.Context, id string) error
	InsertProject(ctx context.Context, p Project, now time.Time) error
	Project(ctx context.Context, id string) (Project, error)
	// Projects lists a workspace's projects by name, then id.
	Projects(ctx context.Context, workspace string) ([]Project, error)
	// Locate returns the workspace and project of an item of kind
	// (ResourceNote, ResourceKnowledgeBase, ResourceRecordChannel).
	Locate(ctx context.Context, kind, id string) (Target, error)
	// SetProject moves an item of kind to project ("" for none).
	SetProject(ctx context.Context, kind, id, project string) error
	// ProjectResources lists a project's items ordered by kind, title, id.
	ProjectResources(ctx context.Context, project string) ([]Resource, error)
}

// TabRow is a tab with its Note's workspace and version, as a write (or a
// read that must return the matching version) sees it.
type TabRow struct {
	Workspace   string
	NoteID      string
	NoteVersion int64
	Tab         TabInfo
	Data        string // the stored content; "" when not asked for
}

// NoteRows holds Notes and their tabs. A tab's content is stored as the
// text itself for a text tab and as JSON for the others (Tab.setContent).
type NoteRows interface {
	InsertNote(ctx context.Context, n NoteInfo, now time.Time) error
	Note(ctx context.Context, id string) (NoteInfo, error)
	// Notes lists a workspace's Notes (project "" for all of them), most
	// recently changed first, then by id.
	Notes(ctx context.Context, workspace, project string) ([]NoteInfo, error)
	// SetNoteVersionIf moves a Note from version expected to next.
	SetNoteVersionIf(ctx context.Context, id string, expected, next int64, now time.Time) (bool, error)
	// Tabs lists a Note's tabs by position, then id; TabContents the same
	// with their contents.
	Tabs(ctx context.Context, note string) ([]TabInfo, error)
	TabContents(ctx context.Context, note string) ([]Tab, error)
	TabRow(ctx context.Context, tab string, withData bool) (TabRow, error)
	// TabStats is a Note's number of tabs and its last position (-1: none).
	TabStats(ctx context.Context, note string) (count, last int, err error)
	InsertTab(ctx context.Context, note string, t TabInfo, data string, now time.Time) error
	UpdateTab(ctx context.Context, tab, data string, version int64, now time.Time) error
}

// RecordRows holds Record channels, their statuses and their items.
type RecordRows interface {
	// InsertChannel stores a channel and, when there are any, its statuses.
	InsertChannel(ctx context.Context, c RecordChannel, statuses []string, now time.Time) error
	Channel(ctx context.Context, id string) (RecordChannel, error)
	// Channels lists a workspace's channels by name, then id.
	Channels(ctx context.Context, workspace string) ([]RecordChannel, error)
	// Statuses returns a channel's statuses in order; none (empty, not an
	// error) when the channel accepts any status.
	Statuses(ctx context.Context, channel string) ([]string, error)
	// InsertItem stores a new item with it.Version.
	InsertItem(ctx context.Context, it RecordItem, now time.Time) error
	Item(ctx context.Context, channel, id string) (RecordItem, error)
	// Items lists a channel's items oldest first (created, then id).
	Items(ctx context.Context, channel string) ([]RecordItem, error)
	// RecentItems lists at most limit items, most recently changed first
	// (then id); status "" means any.
	RecentItems(ctx context.Context, channel, status string, limit int) ([]RecordItem, error)
	// UpdateItemIfVersion stores it's title, status, fields and version.
	UpdateItemIfVersion(ctx context.Context, it RecordItem, expected int64, now time.Time) (bool, error)
	// DeleteItem reports whether there was such an item.
	DeleteItem(ctx context.Context, channel, id string) (bool, error)
}

// KnowledgeRows holds knowledge bases and their articles.
type KnowledgeRows interface {
	InsertBase(ctx context.Context, kb KnowledgeBase, now time.Time) error
	Base(ctx context.Context, id string) (KnowledgeBase, error)
	// Bases lists a workspace's knowledge bases by name, then id.
	Bases(ctx context.Context, workspace string) ([]KnowledgeBase, error)
	// PutArticle inserts an article at version 1, or replaces the title
	// and body of the article id of base kb and adds one to its version.
	PutArticle(ctx context.Context, kb, id, title, body string, now time.Time) error
	Article(ctx context.Context, kb, id string) (ArticleDoc, error)
	// Articles lists a base's articles without bodies, most recently
	// changed first (then id).
	Articles(ctx context.Context, kb string) ([]ArticleDoc, error)
	SetAuthor(ctx context.Context, id, author string) error
	// UpdateArticleIfVersion stores a's title, body, version and author.
	UpdateArticleIfVersion(ctx context.Context, a ArticleDoc, expected int64, now time.Time) (bool, error)
	// DeleteArticle reports whether there was such an article.
	DeleteArticle(ctx context.Context, kb, id string) (bool, error)
	// DeleteBase removes a base and its articles, reporting whether there
	// was such a base.
	DeleteBase(ctx context.Context, id string) (bool, error)
	// ArticleStats is the number of a base's articles, the sum of their
	// versions and the newest change (zero time when there are none).
	ArticleStats(ctx context.Context, kb string) (count, versions int64, newest time.Time, err error)
}

// DraftRows holds the person's editor drafts, one per (owner, item).
type DraftRows interface {
	// PutDraft inserts or replaces the draft of (d.OwnerID, d.ItemID).
	PutDraft(ctx context.Context, d Draft) error
	DeleteDraft(ctx context.Context, owner, item string) error
	Draft(ctx context.Context, owner, item string) (Draft, error)
	// Drafts lists every draft, oldest first.
	Drafts(ctx context.Context) ([]Draft, error)
}
