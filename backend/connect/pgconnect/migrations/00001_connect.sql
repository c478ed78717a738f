-- The Connected endpoint's state on the team server: the desktop's connect
-- tables (connect's schema.go) with PostgreSQL types. Times are timestamptz
-- kept to the millisecond, as the desktop keeps them. Tokens, codes and
-- sessions are stored as SHA-256 hashes. A request's state is bytea: it is
-- echoed to the client byte for byte, and text cannot hold every byte.
-- Proposals live in their own component (pgproposals), which reads
-- connect_connections.

-- +goose Up
CREATE TABLE connect_users (
	id         TEXT PRIMARY KEY,
	name       TEXT NOT NULL,
	admin      BOOLEAN NOT NULL DEFAULT false,
	created_at TIMESTAMPTZ NOT NULL
);
-- A role on a whole workspace (project = '') or on one project.
CREATE TABLE connect_roles (
	user_id   TEXT NOT NULL REFERENCES connect_users(id) ON DELETE CASCADE,
	workspace TEXT NOT NULL,
	project   TEXT NOT NULL DEFAULT '',
	role      TEXT NOT NULL CHECK (role IN ('viewer', 'editor', 'owner')),
	PRIMARY KEY (user_id, workspace, project)
);
CREATE TABLE connect_sessions (
	hash       TEXT PRIMARY KEY,
	user_id    TEXT NOT NULL REFERENCES connect_users(id) ON DELETE CASCADE,
	kind       TEXT NOT NULL CHECK (kind IN ('signin', 'session')),
	expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX connect_sessions_expiry ON connect_sessions(expires_at);
CREATE TABLE connect_connections (
	id           TEXT PRIMARY KEY,
	display_name TEXT NOT NULL,
	assistant    TEXT NOT NULL,
	status       TEXT NOT NULL CHECK (status IN ('pending', 'connected', 'revoked')),
	workspace    TEXT NOT NULL DEFAULT '',
	approver     TEXT NOT NULL DEFAULT '',
	client_id    TEXT NOT NULL DEFAULT '',
	scopes       TEXT NOT NULL DEFAULT '',
	created_at   TIMESTAMPTZ NOT NULL,
	connected_at TIMESTAMPTZ,
	revoked_at   TIMESTAMPTZ
);
CREATE INDEX connect_connections_client ON connect_connections(client_id);
CREATE TABLE connect_projects (
	connection_id TEXT NOT NULL REFERENCES connect_connections(id) ON DELETE CASCADE,
	project       TEXT NOT NULL,
	added_at      TIMESTAMPTZ NOT NULL,
	PRIMARY KEY (connection_id, project)
);
CREATE TABLE connect_channel_invites (
	connection_id TEXT NOT NULL REFERENCES connect_connections(id) ON DELETE CASCADE,
	channel       TEXT NOT NULL,
	invited_by    TEXT NOT NULL,
	added_at      TIMESTAMPTZ NOT NULL,
	PRIMARY KEY (connection_id, channel)
);
-- Only the tools the owner unticked: a tool added later is on.
CREATE TABLE connect_disabled_tools (
	connection_id TEXT NOT NULL REFERENCES connect_connections(id) ON DELETE CASCADE,
	tool          TEXT NOT NULL,
	PRIMARY KEY (connection_id, tool)
);
CREATE TABLE connect_chat_links (
	connection_id TEXT NOT NULL REFERENCES connect_connections(id) ON DELETE CASCADE,
	project       TEXT NOT NULL,
	label         TEXT NOT NULL,
	linked_at     TIMESTAMPTZ NOT NULL,
	PRIMARY KEY (connection_id, project, label)
);
CREATE TABLE connect_clients (
	id            TEXT PRIMARY KEY,
	name          TEXT NOT NULL,
	redirect_uris TEXT NOT NULL,
	metadata      TEXT NOT NULL,
	created_at    TIMESTAMPTZ NOT NULL
);
CREATE TABLE connect_auth_requests (
	id             TEXT PRIMARY KEY,
	client_id      TEXT NOT NULL REFERENCES connect_clients(id) ON DELETE CASCADE,
	redirect_uri   TEXT NOT NULL,
	state          BYTEA NOT NULL,
	code_challenge TEXT NOT NULL,
	scopes         TEXT NOT NULL,
	resource       TEXT NOT NULL,
	session_hash   TEXT NOT NULL,
	csrf           TEXT NOT NULL,
	browser_hash   TEXT NOT NULL DEFAULT '',
	created_at     TIMESTAMPTZ NOT NULL,
	expires_at     TIMESTAMPTZ NOT NULL
);
CREATE INDEX connect_auth_requests_expiry ON connect_auth_requests(expires_at);
CREATE INDEX connect_auth_requests_client ON connect_auth_requests(client_id);
CREATE TABLE connect_codes (
	hash           TEXT PRIMARY KEY,
	client_id      TEXT NOT NULL,
	connection_id  TEXT NOT NULL REFERENCES connect_connections(id) ON DELETE CASCADE,
	user_id        TEXT NOT NULL,
	redirect_uri   TEXT NOT NULL,
	code_challenge TEXT NOT NULL,
	scopes         TEXT NOT NULL,
	resource       TEXT NOT NULL,
	expires_at     TIMESTAMPTZ NOT NULL,
	used           BOOLEAN NOT NULL DEFAULT false
);
CREATE INDEX connect_codes_connection ON connect_codes(connection_id);
CREATE INDEX connect_codes_client ON connect_codes(client_id);
-- A family is one authorization: every refresh rotation stays in it, and
-- a reused refresh token (or code) revokes it.
CREATE TABLE connect_tokens (
	hash          TEXT PRIMARY KEY,
	kind          TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
	family        TEXT NOT NULL,
	client_id     TEXT NOT NULL,
	connection_id TEXT NOT NULL REFERENCES connect_connections(id) ON DELETE CASCADE,
	user_id       TEXT NOT NULL,
	scopes        TEXT NOT NULL,
	resource      TEXT NOT NULL,
	expires_at    TIMESTAMPTZ NOT NULL,
	used          BOOLEAN NOT NULL DEFAULT false,
	revoked       BOOLEAN NOT NULL DEFAULT false
);
CREATE INDEX connect_tokens_family ON connect_tokens(family);
CREATE INDEX connect_tokens_connection ON connect_tokens(connection_id);
CREATE INDEX connect_tokens_client ON connect_tokens(client_id);
CREATE INDEX connect_tokens_expiry ON connect_tokens(expires_at);
CREATE TABLE connect_activity (
	id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	connection_id TEXT NOT NULL,
	tool          TEXT NOT NULL,
	decision      TEXT NOT NULL,
	detail        TEXT NOT NULL DEFAULT '',
	at            TIMESTAMPTZ NOT NULL
);
CREATE INDEX connect_activity_conn ON connect_activity(connection_id, id);
CREATE INDEX connect_activity_at ON connect_activity(at);
-- Rate-limit token buckets, one per purpose and client address, shared by
-- every replica: a bucket's row is locked while it is updated. at is NULL
-- only inside the transaction that creates the row.
CREATE TABLE connect_rate_buckets (
	key    TEXT PRIMARY KEY,
	tokens DOUBLE PRECISION NOT NULL,
	at     TIMESTAMPTZ
);

-- +goose Down
DROP TABLE connect_rate_buckets;
DROP TABLE connect_activity;
DROP TABLE connect_tokens;
DROP TABLE connect_codes;
DROP TABLE connect_auth_requests;
DROP TABLE connect_clients;
DROP TABLE connect_chat_links;
DROP TABLE connect_disabled_tools;
DROP TABLE connect_channel_invites;
DROP TABLE connect_projects;
DROP TABLE connect_connections;
DROP TABLE connect_sessions;
DROP TABLE connect_roles;
DROP TABLE connect_users;
