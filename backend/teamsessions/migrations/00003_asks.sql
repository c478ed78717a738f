-- +goose Up
-- How an app session (a chat or an agent run of the desktop app, not a
-- terminal pane) that needs the person takes an answer from the page:
-- 'approval' (a tool call to approve or decline), 'reply' (a chat's
-- question, answered with a short text); '' otherwise.
ALTER TABLE shared_sessions ADD COLUMN asks TEXT NOT NULL DEFAULT ''
	CHECK (asks IN ('', 'approval', 'reply') AND (asks = '' OR state = 'needs_you'));

-- +goose Down
ALTER TABLE shared_sessions DROP COLUMN asks;
