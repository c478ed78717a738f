-- +goose Up
-- What the Needs you page needs to show and answer a session: the board's
-- own key of the session (an opaque id such as "terminal/p-1", never a path
-- or screen text), when it entered its state (unix ms) and, while it needs
-- the person, how many numbered choices its prompt offers (a count, never
-- their labels).
ALTER TABLE shared_sessions
	ADD COLUMN sid     TEXT NOT NULL DEFAULT '',
	ADD COLUMN since   BIGINT NOT NULL DEFAULT 0,
	ADD COLUMN choices INTEGER NOT NULL DEFAULT 0 CHECK (choices BETWEEN 0 AND 9);
-- The desktop's "Answer from the team server's page" switch, as it last said.
ALTER TABLE shared_session_devices ADD COLUMN answers BOOLEAN NOT NULL DEFAULT false;

-- An answer given on the page to one prompt (the session's sid and since:
-- the same prompt is answered once), waiting for its desktop to claim it
-- (once) and say what came of it. Removed with the desktop's sign-in rows.
CREATE TABLE shared_session_answers (
	id         TEXT PRIMARY KEY,
	person_id  TEXT NOT NULL REFERENCES teamauth_people (id) ON DELETE CASCADE,
	device     TEXT COLLATE "C" NOT NULL,
	sid        TEXT NOT NULL,
	since      BIGINT NOT NULL,
	answer     TEXT NOT NULL CHECK (answer IN ('approve', 'decline', 'choice', 'text')),
	choice     INTEGER NOT NULL DEFAULT 0,
	text       TEXT NOT NULL DEFAULT '',
	origin     TEXT NOT NULL DEFAULT '',
	state      TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'claimed', 'answered', 'gone', 'off', 'failed', 'expired')),
	detail     TEXT NOT NULL DEFAULT '',
	created_at TIMESTAMPTZ NOT NULL,
	claimed_at TIMESTAMPTZ,
	done_at    TIMESTAMPTZ,
	UNIQUE (person_id, device, sid, since)
);
CREATE INDEX shared_session_answers_pending ON shared_session_answers (person_id, device) WHERE state = 'pending';

-- +goose Down
DROP TABLE shared_session_answers;
ALTER TABLE shared_session_devices DROP COLUMN answers;
ALTER TABLE shared_sessions DROP COLUMN sid, DROP COLUMN since, DROP COLUMN choices;
