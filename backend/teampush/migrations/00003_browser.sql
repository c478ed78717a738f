-- +goose Up
-- Which signed-in browser made a subscription (its session's hash, as
-- teamauth keeps it) and what browser it is, so the person can see which
-- browsers get pushes and stop one: signing a browser out drops its
-- subscriptions with it.
ALTER TABLE teampush_webpush
	ADD COLUMN session_key TEXT NOT NULL DEFAULT '',
	ADD COLUMN user_agent  TEXT NOT NULL DEFAULT '';
CREATE INDEX teampush_webpush_session ON teampush_webpush (person_id, session_key);

-- +goose Down
ALTER TABLE teampush_webpush DROP COLUMN session_key, DROP COLUMN user_agent;
