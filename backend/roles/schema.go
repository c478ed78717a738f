package roles

import "github.com/osfoundry/desktop/backend/store"

// Component is the store.Migrate component name of this package's tables.
const Component = "roles"

// The tables keep their pipeline_ names: databases made before this
// package existed have them, created by the pipeline component's first
// migration, with the person's roles, agents and folders in them. IF NOT
// EXISTS takes those over as they are; a new database gets them here.
var migrations = []store.Migration{{Version: 1, SQL: `
CREATE TABLE IF NOT EXISTS pipeline_roles (
	role       TEXT PRIMARY KEY,
	model      TEXT NOT NULL,
	updated_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS pipeline_folders (
	id       INTEGER PRIMARY KEY AUTOINCREMENT,
	path     TEXT NOT NULL UNIQUE,
	added_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS pipeline_agents (
	id               TEXT PRIMARY KEY,
	name             TEXT NOT NULL,
	model_preference TEXT NOT NULL DEFAULT '',
	runtime_role     TEXT NOT NULL DEFAULT 'Worker',
	instructions     TEXT NOT NULL DEFAULT '',
	created_at       INTEGER NOT NULL,
	updated_at       INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS pipeline_cli (
	agent   TEXT PRIMARY KEY,
	enabled INTEGER NOT NULL
);
`}}
