-- +goose Up
-- The projects a runner desktop syncs, as its last offer named them: a
-- run goes only to a desktop that has its project (NULL: an older desktop
-- that did not say, which takes any).
ALTER TABLE team_runners ADD COLUMN projects TEXT[];

-- +goose Down
ALTER TABLE team_runners DROP COLUMN projects;
