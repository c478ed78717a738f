// Package chat is the Chat screen and the agent runs beside it: chats and
// their messages, titling (Titling role), compaction (Compaction role),
// plan mode and "Continue here", and the board cards of chats and agent
// runs. Each task is resolved into a run by backend/pipeline and run by the
// engine (backend/runs); this package keeps what a chat is told and
// answered, never runs a CLI for a task itself (only the short text roles,
// titling and compaction, through agentcli) and never writes pipeline_runs.
// The tables keep their pipeline_ names and the "pipeline" migration
// component, which existing databases have recorded; pipeline_runs is
// still created here and written only by the engine.
package chat

import "github.com/osfoundry/desktop/backend/store"

// Component is the store.Migrate component name of this package's tables
// ("pipeline": the name databases made before this package have).
const Component = "pipeline"

// The roles, agents, folders and CLI tables of the first version are
// backend/roles' now (its migration takes over the ones made here before).
var migrations = []store.Migration{{Version: 1, SQL: `
CREATE TABLE pipeline_chats (
	id          TEXT PRIMARY KEY,
	title       TEXT NOT NULL,
	folder      TEXT NOT NULL DEFAULT '',
	agent_id    TEXT NOT NULL DEFAULT '',
	worktree    INTEGER NOT NULL DEFAULT 0,
	cli_agent   TEXT NOT NULL DEFAULT '',
	cli_session TEXT NOT NULL DEFAULT '',
	ended       INTEGER NOT NULL DEFAULT 0,
	created_at  INTEGER NOT NULL,
	updated_at  INTEGER NOT NULL
);
CREATE TABLE pipeline_messages (
	id         INTEGER PRIMARY KEY AUTOINCREMENT,
	chat_id    TEXT NOT NULL REFERENCES pipeline_chats(id) ON DELETE CASCADE,
	role       TEXT NOT NULL CHECK (role IN ('user','assistant','error')),
	text       TEXT NOT NULL,
	run_id     TEXT NOT NULL DEFAULT '',
	created_at INTEGER NOT NULL
);
CREATE INDEX pipeline_messages_chat ON pipeline_messages(chat_id, id);
CREATE TABLE pipeline_runs (
	id          TEXT PRIMARY KEY,
	chat_id     TEXT NOT NULL DEFAULT '',
	agent_id    TEXT NOT NULL DEFAULT '',
	title       TEXT NOT NULL DEFAULT '',
	model       TEXT NOT NULL,
	role        TEXT NOT NULL,
	folder      TEXT NOT NULL DEFAULT '',
	state       TEXT NOT NULL,
	text        TEXT NOT NULL DEFAULT '',
	error       TEXT NOT NULL DEFAULT '',
	progress    TEXT NOT NULL DEFAULT '[]',
	usage       TEXT NOT NULL DEFAULT '{}',
	cost_usd    REAL NOT NULL DEFAULT 0,
	session_id  TEXT NOT NULL DEFAULT '',
	repo        TEXT NOT NULL DEFAULT '',
	branch      TEXT NOT NULL DEFAULT '',
	diff_stat   TEXT NOT NULL DEFAULT '',
	diff        TEXT NOT NULL DEFAULT '',
	started_at  INTEGER NOT NULL,
	finished_at INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX pipeline_runs_chat ON pipeline_runs(chat_id, started_at);
`}, {Version: 2, SQL: `
-- A worktree run's WorktreeInfo (JSON) while it runs, so a run the app was
-- killed in can have its changes kept on its branch at the next start.
ALTER TABLE pipeline_runs ADD COLUMN worktree TEXT NOT NULL DEFAULT '';
`}, {Version: 3, SQL: `
-- What the CLI computed at API prices, for orchestration spend limits.
ALTER TABLE pipeline_runs ADD COLUMN reported_cost_usd REAL NOT NULL DEFAULT 0;
`}}
