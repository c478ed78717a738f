-- +goose Up
-- A desktop whose person turned on "Share this computer's sessions": one
-- row per person and sign-in (the token family, so a desktop keeps its row
-- across token refreshes and loses it at sign-out).
CREATE TABLE shared_session_devices (
	person_id  TEXT NOT NULL REFERENCES teamauth_people (id) ON DELETE CASCADE,
	device     TEXT COLLATE "C" NOT NULL,
	name       TEXT NOT NULL,
	updated_at TIMESTAMPTZ NOT NULL,
	PRIMARY KEY (person_id, device)
);

-- The board's sessions of that desktop, exactly as it sent them last (each
-- upload replaces them all): kind, title, state and, only while a session
-- needs the person, the line the detector matched. Nothing else of a
-- session, and never terminal text, is kept here.
CREATE TABLE shared_sessions (
	person_id TEXT NOT NULL,
	device    TEXT COLLATE "C" NOT NULL,
	position  INTEGER NOT NULL,
	kind      TEXT NOT NULL,
	title     TEXT NOT NULL,
	state     TEXT NOT NULL,
	line      TEXT NOT NULL DEFAULT '' CHECK (line = '' OR state = 'needs_you'),
	PRIMARY KEY (person_id, device, position),
	FOREIGN KEY (person_id, device) REFERENCES shared_session_devices (person_id, device) ON DELETE CASCADE
);

-- +goose Down
DROP TABLE shared_sessions;
DROP TABLE shared_session_devices;
