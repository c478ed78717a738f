-- +goose Up
-- Slow on purpose, so replicas starting together overlap.
SELECT pg_sleep(0.3);
ALTER TABLE things ADD COLUMN colour TEXT NOT NULL DEFAULT '';
