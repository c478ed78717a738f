package notes

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

	"github.com/osfoundry/desktop/backend/store"
)

// Sentinel errors callers branch on.
var (
	// ErrNotFound: the named workspace, project, Note, tab, knowledge base,
	// article, Record channel or item does not exist (in this workspace).
	ErrNotFound = errors.New("not found")
	// ErrLocked: another program holds the database's write lock for longer
	// than the busy timeout. Closing the other osFoundry instance fixes it.
	ErrLocked = errors.New("the osFoundry database is locked by another program; close other osFoundry windows or commands using it and try again")
	// ErrDiskFull: the disk holding the database filled up during a write.
	// The write was rolled back whole: the previous version is intact.
	ErrDiskFull = errors.New("the disk holding the osFoundry data folder is full, so nothing was saved and the previous version is kept; free some space on it and try again")
	// ErrInvalid: an owner-side helper got an argument it cannot store.
	ErrInvalid = errors.New("invalid argument")
	// ErrEditedHere: PutReplica found a tab the person edited since the
	// copy it was told of; the copy was not put.
	ErrEditedHere = errors.New("the note was edited here since the team server's copy was taken in")
	// ErrUnknownTool: CallTarget was asked about a tool this store does not serve.
	ErrUnknownTool = errors.New("unknown tool")
)

// Scope says which version a write is checked against.
type Scope int

const (
	// ScopeNote (the default) checks every write against the Note's single
	// version: a write is refused if anything in the Note changed since the
	// writer read it. See README.md for why this is the default.
	ScopeNote Scope = iota
	// ScopeTab checks a tab edit against that tab's own version only. No
	// false conflicts between tabs, but no protection for cross-tab reads.
	ScopeTab
	// ScopeNone performs no check (last writer wins). It exists only so the
	// bench can measure what the check prevents and what it costs.
	ScopeNone
)

func (s Scope) String() string {
	switch s {
	case ScopeTab:
		return "tab"
	case ScopeNone:
		return "none"
	}
	return "note"
}

// VersionSource says how a new version number is made.
type VersionSource int

const (
	// VersionCounter (the default) adds one: two writes can never share a version.
	VersionCounter VersionSource = iota
	// VersionMillis uses the commit time in Unix milliseconds, which two
	// writes in the same millisecond share. It reproduces lost lines under
	// fast writes for the bench; never use it otherwise.
	VersionMillis
)

// Options tune the store; the zero value is the production setting.
type Options struct {
	Scope    Scope
	Versions VersionSource
	// Now is the clock (tests inject one); nil means time.Now.
	Now func() time.Time
}

// Store is the small composition the app opens: it migrates the SQLite
// file, builds the resource services — Places (workspaces, projects),
// Notes, Records, Knowledge, Drafts — over one Backend, and serves every
// tool of this package for every caller (bridge, Connected endpoint, the
// person's editor) plus full-text search. It holds no rules of its own.
// Callers that need one resource hold that service (s.Notes, s.Records,
// s.Knowledge …); the services' methods are also promoted onto Store so
// owner commands and tests can stay short.
//
// A Store from OpenBackend (the team server) has no SQLite parts: DB
// returns nil, and the screens' watchers (NewWatcher, the Records
// binding), which follow the desktop's file, are not for it.
type Store struct {
	*core
	*sqliteDB
	*Places
	*Notes
	*Records
	*Knowledge
	*Drafts

	fts *ftsIndex // the desktop's full-text index; nil on another backend

	summaryMu sync.Mutex // SaveSessionSummary finds or creates one base at a time
}

// core is what every resource service shares: the storage, the full-text
// index, the options and the feed of committed Note changes.
type core struct {
	b       Backend
	search  Searcher
	opts    Options
	changes store.Subscribers[noteChange]
	items   store.Subscribers[ItemChange]
}

// Open migrates the "notes" component in db and returns the store.
// knowledgeDir is the folder of Markdown files memory_search also indexes
// (appdir.Knowledge); it may not exist yet.
func Open(db *sql.DB, knowledgeDir string) (*Store, error) {
	return OpenWith(db, knowledgeDir, Options{})
}

// OpenWith is Open with non-default options (benchmarks, tests).
func OpenWith(db *sql.DB, knowledgeDir string, opts Options) (*Store, error) {
	if err := store.Migrate(context.Background(), db, Component, migrations); err != nil {
		return nil, fmt.Errorf("opening notes store: %w", lockErr(err))
	}
	if err := store.Migrate(context.Background(), db, RecordsComponent, recordMigrations); err != nil {
		return nil, fmt.Errorf("opening records store: %w", lockErr(err))
	}
	if err := migrateKnowledge(db); err != nil {
		return nil, err
	}
	if err := store.Migrate(context.Background(), db, DraftsComponent, draftMigrations); err != nil {
		return nil, fmt.Errorf("opening the drafts store: %w", lockErr(err))
	}
	sq := newSQLiteDB(db)
	fts := &ftsIndex{sqliteDB: sq, knowledgeDir: knowledgeDir}
	s := compose(sq, fts, opts)
	s.sqliteDB, s.fts = sq, fts
	fts.notes = s.Notes
	return s, nil
}

// OpenBackend builds the store's services over another engine's Backend
// and Searcher (the team server's PostgreSQL store, already migrated):
// the same rules as the desktop's, on that engine's rows. search may be
// nil, and then searches fail with ErrNoSearch.
func OpenBackend(b Backend, search Searcher, opts Options) *Store {
	return compose(b, search, opts)
}

func compose(b Backend, search Searcher, opts Options) *Store {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	c := &core{b: b, search: search, opts: opts}
	return &Store{core: c, Places: &Places{core: c}, Notes: &Notes{core: c}, Records: &Records{core: c},
		Knowledge: &Knowledge{core: c}, Drafts: &Drafts{core: c}}
}

// Backend returns the storage the services run on (the store test suite
// checks it through notestest.RunStoreSuite).
func (s *Store) Backend() Backend { return s.b }

// DB returns the underlying SQLite database (owner commands share it);
// nil for a Store from OpenBackend.
func (s *Store) DB() *sql.DB {
	if s.sqliteDB == nil {
		return nil
	}
	return s.db
}

type noteChange struct {
	id      string
	version int64
}

func (s *core) notify(noteID string, version int64) {
	s.changes.Notify(noteChange{noteID, version})
}

// ItemChange names a knowledge article or Record item this process wrote.
type ItemChange struct {
	Kind string // "article" or "record"
	ID   string
}

func (s *core) notifyItem(kind, id string) { s.items.Notify(ItemChange{kind, id}) }

// OnItemChange registers f to be called after this process commits an
// article or Record item (the person's save, a put or a new item), on the
// writer's goroutine: keep it short. The returned function unsubscribes.
func (s *Store) OnItemChange(f func(ItemChange)) (unsubscribe func()) {
	return s.items.Add(f)
}

// nextVersion returns the version a write stores after current.
func (s *core) nextVersion(current int64) int64 {
	if s.opts.Versions == VersionMillis {
		return s.opts.Now().UnixMilli()
	}
	return current + 1
}

func (s *core) now() time.Time { return s.opts.Now().UTC() }

// timeText is the stored timestamp form: UTC, full precision, sortable.
const timeText = "2006-01-02T15:04:05.000000000Z"

func formatTime(t time.Time) string { return t.UTC().Format(timeText) }

// watchLookBack is how far before the newest updated_at it saw a watcher
// reads again. A write takes its time before it waits for SQLite's write
// lock (busy_timeout, 5 s), so it can commit after a write stamped later
// that the watcher already read past: without the look-back, a Record a
// synced project brought back while another write committed never
// reached an open board.
const watchLookBack = 10 * time.Second

// rescanFrom is the updated_at a watcher reads from after it saw since.
// What it reads again is announced only if its version is new.
func rescanFrom(since string) string {
	t := parseTime(since)
	if t.IsZero() {
		return since
	}
	return formatTime(t.Add(-watchLookBack))
}

func parseTime(v string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return time.Time{}
	}
	return t
}

// newID returns prefix-<16 hex chars> from crypto/rand: unguessable, so an
// id in a tool argument proves nothing by itself (access is checked anyway).
func newID(prefix string) string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("reading random bytes: " + err.Error())
	}
	return prefix + "-" + hex.EncodeToString(b[:])
}

// lockErr turns SQLite's busy/locked failures into ErrLocked, and a full
// disk into ErrDiskFull, so the person reads what to do instead of
// "database is locked (5) (SQLITE_BUSY)" or "database or disk is full (13)".
func lockErr(err error) error {
	if err == nil || errors.Is(err, ErrLocked) || errors.Is(err, ErrDiskFull) {
		return err
	}
	msg := err.Error()
	if strings.Contains(msg, "SQLITE_FULL") || strings.Contains(msg, "database or disk is full") {
		return fmt.Errorf("%w (%v)", ErrDiskFull, err)
	}
	if strings.Contains(msg, "SQLITE_BUSY") || strings.Contains(msg, "database is locked") ||
		strings.Contains(msg, "SQLITE_LOCKED") {
		return fmt.Errorf("%w (%v)", ErrLocked, err)
	}
	return err
}
