// Package messages is the message store: every project's discussion
// channel, other public and private Message channels, and their posts,
// together with the two agent tools that read and post
// (list_channel_messages, post_channel_message).
//
// Store keeps the rules — names and text limits, a project's one
// discussion channel, idempotent posts (the key lookup, the post and its
// key commit in one Backend.Write), replies only within their channel,
// at most PostsPerMinute posts per connection or run — and reaches its
// rows only through Backend (rows.go). The desktop's Backend is its SQLite
// file (sqlite_*.go), which also gives each project its discussion channel
// in the transaction that creates the project; messagestest.RunStoreSuite
// is the suite any Backend must pass. The rate-limit window is kept in
// this process, or by the Backend when it is a PostLimiter (PostgreSQL,
// so that every replica of the team server sees it).
//
// Agents added to a channel (agents.go, desktop only) answer the posts
// that mention them through an AgentRunner, the app's run engine; their
// answers are posts signed with the run (agentrun.go).
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
	// PostsPerMinute bounds post_channel_message per caller (a connection
	// or a run); 0 is DefaultPostsPerMinute.
	PostsPerMinute int
}

// Store is the message store: the rules, over a Backend. Safe for
// concurrent use.
type Store struct {
	b    Backend
	opts Options

	mu    sync.Mutex // guards opts.NameOf
	posts store.Subscribers[post]
	rate  PostLimiter
}

type post struct {
	c Channel
	m Message
}

// Open migrates the message tables on the desktop's SQLite db and returns
// the store over them.
func Open(db *sql.DB, opts Options) (*Store, error) {
	ctx := context.Background()
	b, err := OpenSQLite(ctx, db)
	if err != nil {
		return nil, err
	}
	s := New(b, opts)
	if err := s.EnsureDiscussions(ctx); err != nil {
		return nil, fmt.Errorf("opening message store: %w", err)
	}
	return s, nil
}

// New returns the store over b (tests, another engine).
func New(b Backend, opts Options) *Store {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.PostsPerMinute <= 0 {
		opts.PostsPerMinute = DefaultPostsPerMinute
	}
	s := &Store{b: b, opts: opts, rate: &postWindow{}}
	if l, ok := b.(PostLimiter); ok {
		s.rate = l
	}
	return s
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
	if !Storable(name) {
		return "", fmt.Errorf("%w: a channel name must be UTF-8 text without NUL characters", ErrInvalid)
	}
	return name, nil
}

// Storable reports whether s is text both engines keep as it is: SQLite
// would store a NUL character or invalid UTF-8, PostgreSQL refuses them,
// so the store refuses them on both.
func Storable(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}

// CheckText refuses an empty, oversized or unstorable post with a message
// that says the limit.
func CheckText(text string) error {
	if strings.TrimSpace(text) == "" {
		return fmt.Errorf("%w: the message is empty; write some text", ErrInvalid)
	}
	if !Storable(text) {
		return fmt.Errorf("%w: the message must be UTF-8 text without NUL characters; remove them and post again", ErrInvalid)
	}
	if n := utf8.RuneCountInString(text); n > MaxTextChars {
		return fmt.Errorf("%w: the message is %d characters; the limit is %d. Shorten it or split it into several posts",
			ErrInvalid, n, MaxTextChars)
	}
	return nil
}
