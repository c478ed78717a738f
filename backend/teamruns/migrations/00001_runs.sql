-- +goose Up
-- A run a teammate or an assistant asked for in a workspace, done by a
-- desktop whose person turned on "Run work for the team". Its queue entry
-- is a River job (river_job); this row is what everyone reads.
CREATE TABLE team_runs (
	id            TEXT COLLATE "C" PRIMARY KEY,
	workspace_id  TEXT COLLATE "C" NOT NULL,
	project_id    TEXT COLLATE "C" NOT NULL,
	requested_by  TEXT NOT NULL,
	requester     TEXT NOT NULL,            -- the name shown to the runner
	task          TEXT NOT NULL,
	state         TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed', 'interrupted', 'cancelled')),
	runner_person TEXT NOT NULL DEFAULT '',
	runner_device TEXT NOT NULL DEFAULT '',
	lease_until   TIMESTAMPTZ,
	progress      TEXT NOT NULL DEFAULT '',
	answer        TEXT NOT NULL DEFAULT '',
	problem       TEXT NOT NULL DEFAULT '',
	created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
	updated_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX team_runs_queued ON team_runs (workspace_id, created_at) WHERE state = 'queued';

-- Desktops offering to run work for a workspace, by when they last asked.
CREATE TABLE team_runners (
	workspace_id TEXT COLLATE "C" NOT NULL,
	person_id    TEXT COLLATE "C" NOT NULL,
	device       TEXT NOT NULL,
	seen_at      TIMESTAMPTZ NOT NULL,
	PRIMARY KEY (workspace_id, person_id, device)
);

-- +goose Down
DROP TABLE team_runners;
DROP TABLE team_runs;
