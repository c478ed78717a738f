-- +goose Up
-- A person's quiet hours: no push between start and end (minutes after
-- midnight in their time zone; start > end spans midnight). The page
-- still shows what waits.
CREATE TABLE teampush_quiet (
	person_id TEXT PRIMARY KEY,
	start_min INTEGER NOT NULL CHECK (start_min BETWEEN 0 AND 1439),
	end_min   INTEGER NOT NULL CHECK (end_min BETWEEN 0 AND 1439),
	time_zone TEXT NOT NULL
);

-- +goose Down
DROP TABLE teampush_quiet;
