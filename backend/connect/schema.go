package connect

import "github.com/osfoundry/desktop/backend/store"

// Component is this package's name in schema_migrations.
const Component = "connect"

// The SQL stays portable (no SQLite-only functions, times as integer Unix
// milliseconds, booleans as 0/1) so a team deployment can move to PostgreSQL.
var migrations = []store.Migration{{Version: 1, SQL: `
CREATE TABLE connect_users (
	id TEXT PRIMARY KEY,
	name TEXT NOT NULL,
	admin INTEGER NOT NULL DEFAULT 0,
	created_at INTEGER NOT NULL
);
-- A role on a whole workspace (project = '') or on one project.
CREATE TABLE connect_roles (
	user_id TEXT NOT NULL REFERENCES connect_users(id) ON DELETE CASCADE,
	workspace TEXT NOT NULL,
	project TEXT NOT NULL DEFAULT '',
	role TEXT NOT NULL CHECK (role IN ('viewer','editor','owner')),
	PRIMARY KEY (user_id, workspace, project)
);
CREATE TABLE connect_sessions (
	hash TEXT PRIMARY KEY,
	user_id TEXT NOT NULL REFERENCES connect_users(id) ON DELETE CASCADE,
	kind TEXT NOT NULL CHECK (kind IN ('signin','session')),
	expires_at INTEGER NOT NULL
);
CREATE TABLE connect_connections (
	id TEXT PRIMARY KEY,
	display_name TEXT NOT NULL,
	assistant TEXT NOT NULL,
	status TEXT NOT NULL CHECK (status IN ('pending','connected','revoked')),
	workspace TEXT NOT NULL DEFAULT '',
	approver TEXT NOT NULL DEFAULT '',
	client_id TEXT NOT NULL DEFAULT '',
	scopes TEXT NOT NULL DEFAULT '',
	created_at INTEGER NOT NULL,
	connected_at INTEGER NOT NULL DEFAULT 0,
	revoked_at INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE connect_projects (
	connection_id TEXT NOT NULL REFERENCES connect_connections(id) ON DELETE CASCADE,
	project TEXT NOT NULL,
	added_at INTEGER NOT NULL,
	PRIMARY KEY (connection_id, project)
);
CREATE TABLE connect_channel_invites (
	connection_id TEXT NOT NULL REFERENCES connect_connections(id) ON DELETE CASCADE,
	channel TEXT NOT NULL,
	invited_by TEXT NOT NULL,
	added_at INTEGER NOT NULL,
	PRIMARY KEY (connection_id, channel)
);
-- Tools are on by default; only the ones the owner unticked are stored, so
-- a tool added in a later version is on for existing connections too.
CREATE TABLE connect_disabled_tools (
	connection_id TEXT NOT NULL REFERENCES connect_connections(id) ON DELETE CASCADE,
	tool TEXT NOT NULL,
	PRIMARY KEY (connection_id, tool)
);
CREATE TABLE connect_chat_links (
	connection_id TEXT NOT NULL REFERENCES connect_connections(id) ON DELETE CASCADE,
	project TEXT NOT NULL,
	label TEXT NOT NULL,
	linked_at INTEGER NOT NULL,
	PRIMARY KEY (connection_id, project, label)
);
CREATE TABLE connect_clients (
	id TEXT PRIMARY KEY,
	name TEXT NOT NULL,
	redirect_uris TEXT NOT NULL,
	metadata TEXT NOT NULL,
	created_at INTEGER NOT NULL
);
CREATE TABLE connect_auth_requests (
	id TEXT PRIMARY KEY,
	client_id TEXT NOT NULL REFERENCES connect_clients(id) ON DELETE CASCADE,
	redirect_uri TEXT NOT NULL,
	state TEXT NOT NULL,
	code_challenge TEXT NOT NULL,
	scopes TEXT NOT NULL,
	resource TEXT NOT NULL,
	session_hash TEXT NOT NULL,
	csrf TEXT NOT NULL,
	expires_at INTEGER NOT NULL
);
CREATE TABLE connect_codes (
	hash TEXT PRIMARY KEY,
	client_id TEXT NOT NULL,
	connection_id TEXT NOT NULL REFERENCES connect_connections(id) ON DELETE CASCADE,
	user_id TEXT NOT NULL,
	redirect_uri TEXT NOT NULL,
	code_challenge TEXT NOT NULL,
	scopes TEXT NOT NULL,
	resource TEXT NOT NULL,
	expires_at INTEGER NOT NULL,
	used INTEGER NOT NULL DEFAULT 0
);
-- Opaque tokens, stored as SHA-256 hashes. A family is one authorization:
-- every refresh rotation stays in it, and a reused refresh token revokes it.
CREATE TABLE connect_tokens (
	hash TEXT PRIMARY KEY,
	kind TEXT NOT NULL CHECK (kind IN ('access','refresh')),
	family TEXT NOT NULL,
	client_id TEXT NOT NULL,
	connection_id TEXT NOT NULL REFERENCES connect_connections(id) ON DELETE CASCADE,
	user_id TEXT NOT NULL,
	scopes TEXT NOT NULL,
	resource TEXT NOT NULL,
	expires_at INTEGER NOT NULL,
	used INTEGER NOT NULL DEFAULT 0,
	revoked INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX connect_tokens_family ON connect_tokens(family);
CREATE TABLE connect_activity (
	id INTEGER PRIMARY KEY,
	connection_id TEXT NOT NULL,
	tool TEXT NOT NULL,
	decision TEXT NOT NULL,
	detail TEXT NOT NULL DEFAULT '',
	at INTEGER NOT NULL
);
CREATE INDEX connect_activity_conn ON connect_activity(connection_id, id);
CREATE TABLE connect_proposals (
	id TEXT PRIMARY KEY,
	connection_id TEXT NOT NULL REFERENCES connect_connections(id) ON DELETE CASCADE,
	kind TEXT NOT NULL,
	project TEXT NOT NULL,
	target TEXT NOT NULL,
	title TEXT NOT NULL,
	files TEXT NOT NULL,
	details TEXT NOT NULL DEFAULT '',
	status TEXT NOT NULL CHECK (status IN ('pending','approved','declined')),
	created_at INTEGER NOT NULL,
	decided_at INTEGER NOT NULL DEFAULT 0,
	decided_by TEXT NOT NULL DEFAULT ''
);
`}, {Version: 2, SQL: `
-- Which browser started a request (hash of its osf_browser cookie), so the
-- owner's sign-in continues that request and no other; and when.
ALTER TABLE connect_auth_requests ADD COLUMN browser_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE connect_auth_requests ADD COLUMN created_at INTEGER NOT NULL DEFAULT 0;
CREATE INDEX connect_auth_requests_expiry ON connect_auth_requests(expires_at);
`}, {Version: 3, SQL: `
-- A change set's files (with their contents before) or patch, as JSON, and
-- what approving it did: the branch, commit and diff, or why it failed.
ALTER TABLE connect_proposals ADD COLUMN change_set TEXT NOT NULL DEFAULT '';
ALTER TABLE connect_proposals ADD COLUMN outcome TEXT NOT NULL DEFAULT '';
`}}
