-- +goose Up
-- The tables of backend/notes (its notes, records, knowledge and drafts
-- components on SQLite) with the same columns. Times are text in
-- notes.StoredTime's form (UTC, nanoseconds, fixed width), not timestamptz:
-- timestamptz keeps microseconds, and both engines must hand back the same
-- times and sort the same. Text that is sorted or compared is COLLATE "C"
-- (byte order, as SQLite's BINARY), whatever the database's locale.
CREATE TABLE workspaces (
	id         TEXT COLLATE "C" PRIMARY KEY,
	name       TEXT COLLATE "C" NOT NULL,
	created_at TEXT COLLATE "C" NOT NULL
);
CREATE TABLE projects (
	id           TEXT COLLATE "C" PRIMARY KEY,
	workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id),
	name         TEXT COLLATE "C" NOT NULL,
	created_at   TEXT COLLATE "C" NOT NULL
);
CREATE INDEX projects_workspace ON projects(workspace_id);

CREATE TABLE notes (
	id           TEXT COLLATE "C" PRIMARY KEY,
	workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id),
	project_id   TEXT COLLATE "C" REFERENCES projects(id),
	title        TEXT COLLATE "C" NOT NULL,
	version      BIGINT NOT NULL,
	created_at   TEXT COLLATE "C" NOT NULL,
	updated_at   TEXT COLLATE "C" NOT NULL
);
CREATE INDEX notes_workspace ON notes(workspace_id, updated_at DESC, id);
CREATE INDEX notes_project ON notes(project_id);

CREATE TABLE note_tabs (
	id         TEXT COLLATE "C" PRIMARY KEY,
	note_id    TEXT COLLATE "C" NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
	position   INTEGER NOT NULL,
	kind       TEXT NOT NULL CHECK (kind IN ('text', 'sheet', 'slides', 'file', 'source')),
	title      TEXT COLLATE "C" NOT NULL,
	data       TEXT NOT NULL,
	version    BIGINT NOT NULL,
	created_at TEXT COLLATE "C" NOT NULL,
	updated_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX note_tabs_note ON note_tabs(note_id, position);

CREATE TABLE knowledge_bases (
	id           TEXT COLLATE "C" PRIMARY KEY,
	workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id),
	project_id   TEXT COLLATE "C" REFERENCES projects(id),
	name         TEXT COLLATE "C" NOT NULL,
	created_at   TEXT COLLATE "C" NOT NULL
);
CREATE INDEX knowledge_bases_workspace ON knowledge_bases(workspace_id);
CREATE INDEX knowledge_bases_project ON knowledge_bases(project_id);

CREATE TABLE knowledge_articles (
	id                TEXT COLLATE "C" PRIMARY KEY,
	knowledge_base_id TEXT COLLATE "C" NOT NULL REFERENCES knowledge_bases(id) ON DELETE CASCADE,
	title             TEXT COLLATE "C" NOT NULL,
	body              TEXT NOT NULL,
	version           BIGINT NOT NULL,
	created_at        TEXT COLLATE "C" NOT NULL,
	updated_at        TEXT COLLATE "C" NOT NULL,
	updated_by        TEXT NOT NULL DEFAULT '',
	-- the full-text document, written with the article (search.go)
	doc               tsvector NOT NULL DEFAULT ''::tsvector
);
CREATE INDEX knowledge_articles_kb ON knowledge_articles(knowledge_base_id, updated_at DESC, id);
CREATE INDEX knowledge_articles_doc ON knowledge_articles USING gin (doc);

CREATE TABLE record_channels (
	id           TEXT COLLATE "C" PRIMARY KEY,
	workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id),
	project_id   TEXT COLLATE "C" REFERENCES projects(id),
	name         TEXT COLLATE "C" NOT NULL,
	created_at   TEXT COLLATE "C" NOT NULL
);
CREATE INDEX record_channels_workspace ON record_channels(workspace_id);
CREATE INDEX record_channels_project ON record_channels(project_id);

CREATE TABLE record_channel_statuses (
	channel_id TEXT COLLATE "C" PRIMARY KEY REFERENCES record_channels(id) ON DELETE CASCADE,
	statuses   TEXT NOT NULL
);

CREATE TABLE record_items (
	id         TEXT COLLATE "C" PRIMARY KEY,
	channel_id TEXT COLLATE "C" NOT NULL REFERENCES record_channels(id) ON DELETE CASCADE,
	title      TEXT COLLATE "C" NOT NULL,
	fields     TEXT NOT NULL,
	status     TEXT COLLATE "C" NOT NULL,
	version    BIGINT NOT NULL,
	created_at TEXT COLLATE "C" NOT NULL,
	updated_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX record_items_channel ON record_items(channel_id, created_at, id);

-- One row per applied write, scoped to the workspace so a key chosen in
-- one workspace can never replay a result into another.
CREATE TABLE idempotency (
	workspace_id TEXT COLLATE "C" NOT NULL,
	key          TEXT COLLATE "C" NOT NULL,
	tool         TEXT NOT NULL,
	args_hash    TEXT NOT NULL,
	result       TEXT NOT NULL,
	created_at   TEXT COLLATE "C" NOT NULL,
	PRIMARY KEY (workspace_id, key)
);

CREATE TABLE drafts (
	owner_id TEXT COLLATE "C" NOT NULL,
	item_id  TEXT COLLATE "C" NOT NULL,
	data     TEXT NOT NULL,
	saved_at TEXT COLLATE "C" NOT NULL,
	PRIMARY KEY (owner_id, item_id)
);

-- A Note's full-text document: its title and notes.SearchText of its tabs,
-- rewritten in the transaction that changes the Note (search.go).
CREATE TABLE note_search (
	note_id TEXT COLLATE "C" PRIMARY KEY REFERENCES notes(id) ON DELETE CASCADE,
	body    TEXT NOT NULL,
	doc     tsvector NOT NULL
);
CREATE INDEX note_search_doc ON note_search USING gin (doc);

-- +goose Down
DROP TABLE note_search, drafts, idempotency, record_items, record_channel_statuses, record_channels,
	knowledge_articles, knowledge_bases, note_tabs, notes, projects, workspaces;
