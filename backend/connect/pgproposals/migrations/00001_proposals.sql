-- Proposals on the team server: the desktop's connect_proposals (see
-- connect's schema.go) with PostgreSQL types. A change set (its files with
-- their text before, or its patch) and what approving it did are JSON, as
-- on the desktop; json, not jsonb, because file text may hold a NUL
-- character, which jsonb cannot keep. The connection's name is read from
-- the connect store's connect_connections when listing.

-- +goose Up
CREATE TABLE proposals (
	id            TEXT PRIMARY KEY,
	connection_id TEXT NOT NULL,
	kind          TEXT NOT NULL,
	project       TEXT NOT NULL,
	target        TEXT NOT NULL,
	title         TEXT NOT NULL,
	files         JSON NOT NULL,
	details       TEXT NOT NULL DEFAULT '',
	status        TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'declined')),
	created_at    TIMESTAMPTZ NOT NULL,
	decided_at    TIMESTAMPTZ,
	decided_by    TEXT NOT NULL DEFAULT '',
	change_set    JSON,
	outcome       JSON
);
CREATE INDEX proposals_pending ON proposals(connection_id) WHERE status = 'pending';
CREATE INDEX proposals_newest ON proposals(created_at DESC, id COLLATE "C");

-- +goose Down
DROP TABLE proposals;
