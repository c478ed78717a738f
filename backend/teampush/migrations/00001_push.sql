-- +goose Up
-- The server's own VAPID key pair (one row), made by the first replica that
-- needs it: every replica signs Web Push requests with the same key.
CREATE TABLE teampush_vapid (
	id          INTEGER PRIMARY KEY CHECK (id = 1),
	public_key  TEXT NOT NULL,
	private_key TEXT NOT NULL
);
-- A browser (the Needs you page, installed or not) that subscribed to Web Push.
CREATE TABLE teampush_webpush (
	endpoint   TEXT PRIMARY KEY,
	person_id  TEXT NOT NULL,
	p256dh     TEXT NOT NULL,
	auth       TEXT NOT NULL,
	created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX teampush_webpush_person ON teampush_webpush (person_id);
-- A person's ntfy topic: the server publishes there, their phone's ntfy app
-- subscribes. The topic is random (it is the secret on a public ntfy server);
-- the token is for an ntfy server that wants one.
CREATE TABLE teampush_ntfy (
	person_id  TEXT PRIMARY KEY,
	server_url TEXT NOT NULL,
	topic      TEXT NOT NULL,
	token      TEXT NOT NULL DEFAULT '',
	created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
-- When each session last pushed, so replicas share the cooldown.
CREATE TABLE teampush_sent (
	person_id   TEXT NOT NULL,
	session_key TEXT NOT NULL,
	sent_at     TIMESTAMPTZ NOT NULL,
	PRIMARY KEY (person_id, session_key)
);

-- +goose Down
DROP TABLE teampush_sent, teampush_ntfy, teampush_webpush, teampush_vapid;
