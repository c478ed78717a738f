-- The connect store's connections table, with the desktop's columns,
-- standing in for its PostgreSQL migrations in these tests.
CREATE TABLE connect_connections (
	id           TEXT PRIMARY KEY,
	display_name TEXT NOT NULL
);
