-- +goose Up
-- Which browser a web session is (its User-Agent, shortened), so the person
-- can tell their phone from their laptop in the list of browsers that may
-- see and answer what waits for them, and sign one out.
ALTER TABLE teamauth_sessions ADD COLUMN user_agent TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE teamauth_sessions DROP COLUMN user_agent;
