-- +goose Up
-- Each running replica says it is alive every few seconds; an operator
-- sees which ones run with SELECT * FROM server_replicas. A replica that
-- stopped cleanly removes its row; one that crashed is dropped after ten
-- minutes without a heartbeat.
CREATE TABLE server_replicas (
    id         text PRIMARY KEY,
    host       text NOT NULL,
    listen     text NOT NULL,
    version    text NOT NULL,
    started_at timestamptz NOT NULL DEFAULT now(),
    seen_at    timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE server_replicas;
