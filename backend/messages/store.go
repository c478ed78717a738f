// Package messages is the message store: every project's discussion
// channel, other public and private Message channels, and their posts,
// together with the two agent tools that read and post
// (list_channel_messages, post_channel_message).
//
// It decides nothing about who may call a tool: the Connected endpoint
// checks membership on every call from the Target this store reports
// (CallTarget). It never imports the Wails runtime; the app is told about
// new posts through OnPost.
package messages

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/osfoundry/desktop/backend/store"
)

// Component is this package's name in schema_migrations.
const Component = "messages"

// Limits. A post is chat, not a document: 4,000 characters is what the
// common chat tools accept in one message.
const (
	MaxTextChars     = 4000
	MaxNameChars     = 80
	DefaultListLimit = 50
	MaxListLimit     = 200
)

// Author kinds.
const (
	AuthorPerson    = "person"
	AuthorAssistant = "assistant"
)

// Errors callers branch on.
var (
	// ErrNotFound: no such channel or message.
	ErrNotFound = errors.New("not found")
	// ErrInvalid: bad input; the message says what to change.
	ErrInvalid = errors.New("invalid input")
)

var migrations = []store.Migration{
	{Version: 1, SQL: `
CREATE TABLE message_channels (
	id           TEXT PRIMARY KEY,
	workspace_id TEXT NOT NULL,
	project_id   TEXT NOT NULL DEFAULT '',
	name         TEXT NOT NULL,
	discussion   INTEGER NOT NULL DEFAULT 0,
	private      INTEGER NOT NULL DEFAULT 0,
	owner        TEXT NOT NULL DEFAULT '',
	created_at   TEXT NOT NULL
);
CREATE INDEX message_channels_workspace ON message_channels(workspace_id, project_id);
CREATE UNIQUE INDEX message_channels_discussion ON message_channels(project_id) WHERE discussion = 1;

CREATE TABLE messages (
	seq         INTEGER PRIMARY KEY AUTOINCREMENT,
	id          TEXT NOT NULL UNIQUE,
	channel_id  TEXT NOT NULL REFERENCES message_channels(id) ON DELETE CASCADE,
	author_kind TEXT NOT NULL,
	author      TEXT NOT NULL,
	author_name TEXT NOT NULL,
	text        TEXT NOT NULL,
	reply_to    TEXT NOT NULL DEFAULT '',
	created_at  TEXT NOT NULL
);
CREATE INDEX messages_channel ON messages(channel_id, seq);

CREATE TABLE message_keys (
	workspace_id TEXT NOT NULL,
	key          TEXT NOT NULL,
	args_hash    TEXT NOT NULL,
	message_id   TEXT NOT NULL,
	PRIMARY KEY (workspace_id, key)
);
`},
}

// Channel is one Message channel. Project is "" for a channel outside
// every project; Owner is set for a private channel.
type Channel struct {
	ID         string `json:"id"`
	Workspace  string `json:"workspace"`
	Project    string `json:"project"`
	Name       string `json:"name"`
	Discussion bool   `json:"discussion"`
	Private    bool   `json:"private"`
	Owner      string `json:"owner"`
	CreatedAt  string `json:"createdAt"`
}

// Message is one post. AuthorName is the person's or the connection's
// name at the time of posting.
type Message struct {
	ID         string `json:"id"`
	Seq        int64  `json:"seq"`
	Channel    string `json:"channel_id"`
	AuthorKind string `json:"author_kind"`
	Author     string `json:"author"`
	AuthorName string `json:"author_name"`
	Text       string `json:"text"`
	ReplyTo    string `json:"reply_to,omitempty"`
	CreatedAt  string `json:"created_at"`
}

// Options configure a Store.
type Options struct {
	// Now is the clock.
	Now func() time.Time
	// NameOf names a tool caller ("connect:<id>") for the posts it writes;
	// nil or "" falls back to the caller string.
	NameOf func(ctx context.Context, source string) string
}

// Store is the message store. Safe for concurrent use.
type Store struct {
	db   *sql.DB
	opts Options

	mu    sync.Mutex // guards opts.NameOf
	posts store.Subscribers[post]
}

type post struct {
	c Channel
	m Message
}

// Open migrates the message tables on db.
func Open(db *sql.DB, opts Options) (*Store, error) {
	if err := store.Migrate(context.Background(), db, Component, migrations); err != nil {
		return nil, fmt.Errorf("opening message store: %w", err)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	s := &Store{db: db, opts: opts}
	if err := s.discussWithProjects(context.Background()); err != nil {
		return nil, fmt.Errorf("opening message store: %w", err)
	}
	return s, nil
}

// discussionTrigger gives a project its discussion channel in the same
// transaction that creates the project, whichever process creates it (the
// window, an owner command): the channel exists "with the project", never
// only after someone first asks for it.
const discussionTrigger = `CREATE TRIGGER IF NOT EXISTS projects_discussion_channel AFTER INSERT ON projects
BEGIN
	INSERT OR IGNORE INTO message_channels (` + channelCols + `)
	VALUES ('ch_' || lower(hex(randomblob(8))), NEW.workspace_id, NEW.id, 'discussion', 1, 0, '',
		strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END`

// discussWithProjects installs discussionTrigger when the projects table
// exists (the Notes store owns it) and gives every project made before
// that its discussion channel.
func (s *Store) discussWithProjects(ctx context.Context) error {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'projects'`).Scan(&n); err != nil {
		return fmt.Errorf("looking for the projects table: %w", err)
	}
	if n == 0 {
		return nil
	}
	if _, err := s.db.ExecContext(ctx, discussionTrigger); err != nil {
		return fmt.Errorf("creating discussion channels with projects: %w", err)
	}
	return s.EnsureDiscussions(ctx)
}

// SetNameOf sets how tool callers are named (the app wires it once the
// Connected service is open).
func (s *Store) SetNameOf(f func(ctx context.Context, source string) string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.opts.NameOf = f
}

// OnPost registers f to run after every committed post (by a person or an
// assistant). f runs on the poster's goroutine: keep it short.
func (s *Store) OnPost(f func(Channel, Message)) (unsubscribe func()) {
	return s.posts.Add(func(p post) { f(p.c, p.m) })
}

func (s *Store) announce(c Channel, m Message) { s.posts.Notify(post{c, m}) }

func newID(prefix string) string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

func (s *Store) stamp() string { return s.opts.Now().UTC().Format(time.RFC3339Nano) }

func checkName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" || utf8.RuneCountInString(name) > MaxNameChars {
		return "", fmt.Errorf("%w: a channel name must be 1–%d characters", ErrInvalid, MaxNameChars)
	}
	return name, nil
}

// CheckText refuses an empty or oversized post with a message that says
// the limit.
func CheckText(text string) error {
	if strings.TrimSpace(text) == "" {
		return fmt.Errorf("%w: the message is empty; write some text", ErrInvalid)
	}
	if n := utf8.RuneCountInString(text); n > MaxTextChars {
		return fmt.Errorf("%w: the message is %d characters; the limit is %d. Shorten it or split it into several posts",
			ErrInvalid, n, MaxTextChars)
	}
	return nil
}
