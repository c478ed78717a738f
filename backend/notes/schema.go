package notes

import "github.com/osfoundry/desktop/backend/store"

// Component is this package's name in schema_migrations.
const Component = "notes"

// The schema sticks to SQL that PostgreSQL also accepts (TEXT ids,
// INTEGER counters, ISO-8601 text timestamps, ON CONFLICT upserts) so a
// team deployment can move the same tables to a server database. The one
// SQLite-only piece, the FTS5 index, lives in its own migration and its own
// file (search.go).
var migrations = []store.Migration{
	{Version: 1, SQL: `
CREATE TABLE workspaces (
	id         TEXT PRIMARY KEY,
	name       TEXT NOT NULL,
	created_at TEXT NOT NULL
);
CREATE TABLE projects (
	id           TEXT PRIMARY KEY,
	workspace_id TEXT NOT NULL REFERENCES workspaces(id),
	name         TEXT NOT NULL,
	created_at   TEXT NOT NULL
);
CREATE INDEX projects_workspace ON projects(workspace_id);

CREATE TABLE notes (
	id           TEXT PRIMARY KEY,
	workspace_id TEXT NOT NULL REFERENCES workspaces(id),
	project_id   TEXT REFERENCES projects(id),
	title        TEXT NOT NULL,
	version      INTEGER NOT NULL,
	created_at   TEXT NOT NULL,
	updated_at   TEXT NOT NULL
);
CREATE INDEX notes_workspace ON notes(workspace_id);
CREATE INDEX notes_project ON notes(project_id);

CREATE TABLE note_tabs (
	id         TEXT PRIMARY KEY,
	note_id    TEXT NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
	position   INTEGER NOT NULL,
	kind       TEXT NOT NULL CHECK (kind IN ('text', 'sheet', 'slides', 'file', 'source')),
	title      TEXT NOT NULL,
	data       TEXT NOT NULL,
	version    INTEGER NOT NULL,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL
);
CREATE INDEX note_tabs_note ON note_tabs(note_id, position);

CREATE TABLE knowledge_bases (
	id           TEXT PRIMARY KEY,
	workspace_id TEXT NOT NULL REFERENCES workspaces(id),
	project_id   TEXT REFERENCES projects(id),
	name         TEXT NOT NULL,
	created_at   TEXT NOT NULL
);
CREATE INDEX knowledge_bases_project ON knowledge_bases(project_id);

CREATE TABLE knowledge_articles (
	id                TEXT PRIMARY KEY,
	knowledge_base_id TEXT NOT NULL REFERENCES knowledge_bases(id) ON DELETE CASCADE,
	title             TEXT NOT NULL,
	body              TEXT NOT NULL,
	version           INTEGER NOT NULL,
	created_at        TEXT NOT NULL,
	updated_at        TEXT NOT NULL
);
CREATE INDEX knowledge_articles_kb ON knowledge_articles(knowledge_base_id);

CREATE TABLE record_channels (
	id           TEXT PRIMARY KEY,
	workspace_id TEXT NOT NULL REFERENCES workspaces(id),
	project_id   TEXT REFERENCES projects(id),
	name         TEXT NOT NULL,
	created_at   TEXT NOT NULL
);
CREATE INDEX record_channels_project ON record_channels(project_id);

CREATE TABLE record_items (
	id         TEXT PRIMARY KEY,
	channel_id TEXT NOT NULL REFERENCES record_channels(id) ON DELETE CASCADE,
	title      TEXT NOT NULL,
	fields     TEXT NOT NULL,
	status     TEXT NOT NULL,
	version    INTEGER NOT NULL,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL
);
CREATE INDEX record_items_channel ON record_items(channel_id);

-- One row per applied write. The key is scoped to the workspace so a key
-- chosen in one workspace can never replay a result into another.
CREATE TABLE idempotency (
	workspace_id TEXT NOT NULL,
	key          TEXT NOT NULL,
	tool         TEXT NOT NULL,
	args_hash    TEXT NOT NULL,
	result       TEXT NOT NULL,
	created_at   TEXT NOT NULL,
	PRIMARY KEY (workspace_id, key)
);
`},
	{Version: 2, SQL: `
-- SQLite-only: full-text index for memory_search and search_knowledge_base.
-- Rows are refreshed lazily at search time (see search.go) so writes never
-- pay for indexing.
CREATE VIRTUAL TABLE search_fts USING fts5(
	kind UNINDEXED, ref UNINDEXED, workspace UNINDEXED, container UNINDEXED,
	title, body,
	tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TABLE search_state (
	kind    TEXT NOT NULL,
	ref     TEXT NOT NULL,
	stamp   TEXT NOT NULL,
	fts_row INTEGER NOT NULL,
	PRIMARY KEY (kind, ref)
);
`},
	{Version: 3, SQL: `
-- A counter every change to what the index holds moves, whichever process
-- made it: a search that finds it where it was skips looking for stale
-- rows (four queries on every agent call).
CREATE TABLE search_gen (id INTEGER PRIMARY KEY CHECK (id = 1), gen INTEGER NOT NULL);
INSERT INTO search_gen (id, gen) VALUES (1, 1);
CREATE TRIGGER search_gen_note_i AFTER INSERT ON notes BEGIN UPDATE search_gen SET gen = gen + 1; END;
CREATE TRIGGER search_gen_note_u AFTER UPDATE ON notes BEGIN UPDATE search_gen SET gen = gen + 1; END;
CREATE TRIGGER search_gen_note_d AFTER DELETE ON notes BEGIN UPDATE search_gen SET gen = gen + 1; END;
CREATE TRIGGER search_gen_article_i AFTER INSERT ON knowledge_articles BEGIN UPDATE search_gen SET gen = gen + 1; END;
CREATE TRIGGER search_gen_article_u AFTER UPDATE ON knowledge_articles BEGIN UPDATE search_gen SET gen = gen + 1; END;
CREATE TRIGGER search_gen_article_d AFTER DELETE ON knowledge_articles BEGIN UPDATE search_gen SET gen = gen + 1; END;
CREATE TRIGGER search_gen_kb_u AFTER UPDATE ON knowledge_bases BEGIN UPDATE search_gen SET gen = gen + 1; END;
CREATE TRIGGER search_gen_kb_d AFTER DELETE ON knowledge_bases BEGIN UPDATE search_gen SET gen = gen + 1; END;
`},
	{Version: 4, SQL: `
-- Prefix indexes for word beginnings of 2–12 characters: every search term
-- is a prefix query ("refu"*), which otherwise merges the postings of every
-- matching word, in the query and again in bm25's document counts; with
-- them a search over 10,000 articles takes about half the time, with the
-- same hits. The index is rebuilt lazily by the next search.
DROP TABLE search_fts;
CREATE VIRTUAL TABLE search_fts USING fts5(
	kind UNINDEXED, ref UNINDEXED, workspace UNINDEXED, container UNINDEXED,
	title, body,
	tokenize = 'unicode61 remove_diacritics 2',
	prefix = '2 3 4 5 6 7 8 9 10 11 12'
);
DELETE FROM search_state;
UPDATE search_gen SET gen = gen + 1;
`},
}
