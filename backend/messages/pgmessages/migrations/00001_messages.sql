-- The message tables of the team server: the desktop's (messages'
-- sqlite_backend.go) with PostgreSQL types, plus the post-rate window,
-- which the desktop keeps in its one process.

-- +goose Up
CREATE TABLE message_channels (
	id           TEXT PRIMARY KEY,
	workspace_id TEXT NOT NULL,
	project_id   TEXT NOT NULL DEFAULT '',
	name         TEXT NOT NULL,
	discussion   BOOLEAN NOT NULL DEFAULT false,
	private      BOOLEAN NOT NULL DEFAULT false,
	owner        TEXT NOT NULL DEFAULT '',
	created_at   TEXT NOT NULL
);
CREATE INDEX message_channels_workspace ON message_channels(workspace_id, project_id);
CREATE UNIQUE INDEX message_channels_discussion ON message_channels(project_id) WHERE discussion;

CREATE TABLE messages (
	seq         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
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

-- One row per author who posted in the last minute: the times of those
-- posts, oldest first.
CREATE TABLE message_post_windows (
	author TEXT PRIMARY KEY,
	times  TIMESTAMPTZ[] NOT NULL
);

-- Gives a new project its discussion channel in the transaction that
-- creates it; Open attaches it to the notes store's projects table.
-- +goose StatementBegin
CREATE FUNCTION messages_discussion_channel() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO message_channels (id, workspace_id, project_id, name, discussion, private, owner, created_at)
	VALUES ('ch_' || substr(md5(random()::text || clock_timestamp()::text), 1, 16), NEW.workspace_id, NEW.id,
		'discussion', true, false, '', to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
	ON CONFLICT (project_id) WHERE discussion DO NOTHING;
	RETURN NEW;
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION messages_discussion_channel() CASCADE;
DROP TABLE message_post_windows;
DROP TABLE message_keys;
DROP TABLE messages;
DROP TABLE message_channels;
