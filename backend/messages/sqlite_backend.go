package messages

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/osfoundry/desktop/backend/store"
)

// Component is this package's name in schema_migrations.
const Component = "messages"

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
	{Version: 2, SQL: agentsTable},
}

// OpenSQLite migrates the message tables on db and returns the Backend
// over them. It also gives every project its discussion channel in the
// transaction that creates the project (discussionTrigger), once the
// notes store's projects table exists.
func OpenSQLite(ctx context.Context, db *sql.DB) (Backend, error) {
	if err := store.Migrate(ctx, db, Component, migrations); err != nil {
		return nil, fmt.Errorf("opening message store: %w", err)
	}
	projects, err := installDiscussionTrigger(ctx, db)
	if err != nil {
		return nil, fmt.Errorf("opening message store: %w", err)
	}
	return sqliteBackend{db: db, noProjects: !projects}, nil
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

// installDiscussionTrigger installs discussionTrigger when the projects
// table exists (the notes store owns it) and reports whether it does.
// Projects made before that get theirs from Store.EnsureDiscussions.
func installDiscussionTrigger(ctx context.Context, db *sql.DB) (bool, error) {
	var n int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'projects'`).Scan(&n); err != nil {
		return false, fmt.Errorf("looking for the projects table: %w", err)
	}
	if n == 0 {
		return false, nil
	}
	if _, err := db.ExecContext(ctx, discussionTrigger); err != nil {
		return false, fmt.Errorf("creating discussion channels with projects: %w", err)
	}
	return true, nil
}

// sqliteBackend is Backend over the desktop's SQLite file. store.Open sets
// _txlock=immediate, so a Write takes the write lock at BEGIN and its key
// lookup sees every earlier commit.
// noProjects: the database had no projects table when it was opened (a
// message store without the notes store, in tests), so no project lacks a
// discussion channel.
type sqliteBackend struct {
	db         *sql.DB
	noProjects bool
}

var _ Backend = sqliteBackend{}

// querier is what both *sql.DB and *sql.Tx offer.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func (b sqliteBackend) Write(ctx context.Context, f func(tx Tx) error) error {
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("beginning a write: %w", err)
	}
	defer tx.Rollback()
	if err := f(sqliteTx{q: tx, noProjects: b.noProjects}); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("committing: %w", err)
	}
	return nil
}

func (b sqliteBackend) Pool() Tx { return sqliteTx{q: b.db, noProjects: b.noProjects} }

// sqliteTx hands out the rows over one querier: the write transaction, or
// the pool.
type sqliteTx struct {
	q          querier
	noProjects bool
}

type (
	sqliteChannels sqliteTx
	sqlitePosts    sqliteTx
	sqlitePlaces   sqliteTx
)

var (
	_ Tx          = sqliteTx{}
	_ ChannelRows = sqliteChannels{}
	_ PostRows    = sqlitePosts{}
	_ PlaceRows   = sqlitePlaces{}
)

func (t sqliteTx) Channels() ChannelRows { return sqliteChannels(t) }
func (t sqliteTx) Posts() PostRows       { return sqlitePosts(t) }
func (t sqliteTx) Places() PlaceRows     { return sqlitePlaces(t) }

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
