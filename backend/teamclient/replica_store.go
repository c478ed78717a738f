package teamclient

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/store"
)

// ReplicaComponent is the synced projects' bookkeeping in the app's
// database, beside the Notes it keeps in step.
const ReplicaComponent = "team_sync"

var replicaMigrations = []store.Migration{
	{Version: 1, SQL: `
-- A project of this desktop that is Synced to a team workspace; every
-- other project is Local-only and never leaves the desktop.
CREATE TABLE team_sync_projects (
	project_id      TEXT PRIMARY KEY,
	workspace_id    TEXT NOT NULL, -- the team's workspace on the server
	local_workspace TEXT NOT NULL  -- where the project lives here
);
-- Where each team workspace's changes were last read up to (the
-- server's cursor, kept as it sent it).
CREATE TABLE team_sync_cursors (
	workspace_id TEXT PRIMARY KEY,
	cursor       TEXT NOT NULL
);
-- Each synced Note as the server last had it: its version and the text of
-- its tabs (what a local edit started from, for compare / re-apply).
CREATE TABLE team_sync_notes (
	note_id        TEXT PRIMARY KEY,
	server_version INTEGER NOT NULL,
	tabs           TEXT NOT NULL
);
-- Edits made here that the server has not taken yet, sent in order.
CREATE TABLE team_sync_outbox (
	id         INTEGER PRIMARY KEY AUTOINCREMENT,
	kind       TEXT NOT NULL CHECK (kind IN ('create', 'edit')),
	workspace  TEXT NOT NULL,
	note_id    TEXT NOT NULL,
	tab_id     TEXT NOT NULL,
	project_id TEXT NOT NULL,
	title      TEXT NOT NULL DEFAULT '',
	text       TEXT NOT NULL,
	idem_key   TEXT NOT NULL,
	problem    TEXT NOT NULL DEFAULT ''
);
CREATE INDEX team_sync_outbox_note ON team_sync_outbox(note_id, id);
CREATE INDEX team_sync_outbox_project ON team_sync_outbox(project_id);
`},
	{Version: 2, SQL: `
-- A project the person moved to Synced while the server could not be
-- reached: it moves when the server is back (problem: the server refused).
CREATE TABLE team_sync_shares (
	project_id   TEXT PRIMARY KEY,
	workspace_id TEXT NOT NULL,
	asked_at     INTEGER NOT NULL,
	problem      TEXT NOT NULL DEFAULT ''
);
`},
	{Version: 3, SQL: `
-- Each synced knowledge base ('kb') and article ('article') as the server
-- last had it. An article whose local version is not local_version was
-- edited here since: it is what waits to go up (the outbox of knowledge),
-- and the title and body are what the edit started from.
CREATE TABLE team_sync_items (
	kind           TEXT NOT NULL,
	item_id        TEXT NOT NULL,
	container      TEXT NOT NULL DEFAULT '',
	server_version INTEGER NOT NULL DEFAULT 0,
	local_version  INTEGER NOT NULL DEFAULT 0,
	title          TEXT NOT NULL DEFAULT '',
	body           TEXT NOT NULL DEFAULT '',
	problem        TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (kind, item_id)
);
`},
	{Version: 4, SQL: `
-- The person's posts in synced projects' discussion channels that the
-- server has not taken yet, sent in order.
CREATE TABLE team_sync_posts_out (
	id         INTEGER PRIMARY KEY AUTOINCREMENT,
	post_id    TEXT NOT NULL,
	workspace  TEXT NOT NULL,
	project_id TEXT NOT NULL,
	text       TEXT NOT NULL,
	problem    TEXT NOT NULL DEFAULT ''
);
-- Which server post is which post here (sent from here, or taken in).
CREATE TABLE team_sync_post_ids (
	server_id TEXT PRIMARY KEY,
	local_id  TEXT NOT NULL
);
`},
	{Version: 5, SQL: `
-- Posts of a synced project's other channels wait beside its discussion's,
-- in the same order: channel_id is the channel ('' for the discussion).
ALTER TABLE team_sync_posts_out ADD COLUMN channel_id TEXT NOT NULL DEFAULT '';
`},
}

// synced is a project's place on both sides ("" workspace: Local-only).
type synced struct{ workspace, local string }

func (r *Replica) projectOf(ctx context.Context, project string) (synced, error) {
	var s synced
	err := r.db.QueryRowContext(ctx, `SELECT workspace_id, local_workspace FROM team_sync_projects WHERE project_id = ?`, project).
		Scan(&s.workspace, &s.local)
	if errors.Is(err, sql.ErrNoRows) {
		return synced{}, nil
	}
	return s, err
}

// serverCopy is a Note as the server last had it.
type serverCopy struct {
	version int64
	tabs    map[string]string // tab id → text
}

func (r *Replica) serverCopy(ctx context.Context, note string) (serverCopy, bool, error) {
	var c serverCopy
	var tabs string
	err := r.db.QueryRowContext(ctx, `SELECT server_version, tabs FROM team_sync_notes WHERE note_id = ?`, note).Scan(&c.version, &tabs)
	if errors.Is(err, sql.ErrNoRows) {
		return c, false, nil
	}
	if err != nil {
		return c, false, fmt.Errorf("reading the synced copy of %s: %w", note, err)
	}
	if err := json.Unmarshal([]byte(tabs), &c.tabs); err != nil {
		return c, false, fmt.Errorf("reading the synced copy of %s: %w", note, err)
	}
	return c, true, nil
}

// remember records n as the server's copy.
func (r *Replica) remember(ctx context.Context, n notes.Note) error {
	return r.rememberCopy(ctx, n.ID, serverCopy{version: n.Version, tabs: textTabs(n)})
}

func (r *Replica) rememberCopy(ctx context.Context, note string, c serverCopy) error {
	if c.tabs == nil {
		c.tabs = map[string]string{}
	}
	data, _ := json.Marshal(c.tabs)
	_, err := r.db.ExecContext(ctx, `INSERT INTO team_sync_notes (note_id, server_version, tabs) VALUES (?, ?, ?)
		ON CONFLICT (note_id) DO UPDATE SET server_version = excluded.server_version, tabs = excluded.tabs`, note, c.version, string(data))
	if err != nil {
		return fmt.Errorf("recording the synced copy of %s: %w", note, err)
	}
	return nil
}

// outboxRow is one edit waiting for the server.
type outboxRow struct {
	id                            int64
	kind, workspace, note, tab    string
	project, title, text, idemKey string
}

func (r *Replica) pending(ctx context.Context) ([]outboxRow, error) {
	rows, err := r.db.QueryContext(ctx, `SELECT id, kind, workspace, note_id, tab_id, project_id, title, text, idem_key
		FROM team_sync_outbox WHERE problem = '' ORDER BY id LIMIT 200`)
	if err != nil {
		return nil, fmt.Errorf("reading the outbox: %w", err)
	}
	defer rows.Close()
	var out []outboxRow
	for rows.Next() {
		var o outboxRow
		if err := rows.Scan(&o.id, &o.kind, &o.workspace, &o.note, &o.tab, &o.project, &o.title, &o.text, &o.idemKey); err != nil {
			return nil, fmt.Errorf("reading the outbox: %w", err)
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

func (r *Replica) enqueue(ctx context.Context, o outboxRow) error {
	_, err := r.db.ExecContext(ctx, `INSERT INTO team_sync_outbox (kind, workspace, note_id, tab_id, project_id, title, text, idem_key)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, o.kind, o.workspace, o.note, o.tab, o.project, o.title, o.text, randomString())
	if err != nil {
		return fmt.Errorf("keeping the edit for the team server: %w", err)
	}
	return nil
}

// lastQueued is the newest text queued for a tab ("", false: none).
func (r *Replica) lastQueued(ctx context.Context, note, tab string) (string, bool, error) {
	var text string
	err := r.db.QueryRowContext(ctx, `SELECT text FROM team_sync_outbox WHERE note_id = ? AND tab_id = ? ORDER BY id DESC LIMIT 1`, note, tab).Scan(&text)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	return text, err == nil, err
}

func (r *Replica) hasPending(ctx context.Context, note string) (bool, error) {
	var n int
	err := r.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM team_sync_outbox WHERE note_id = ?`, note).Scan(&n)
	return n > 0, err
}

func (r *Replica) sent(ctx context.Context, id int64) error {
	_, err := r.db.ExecContext(ctx, `DELETE FROM team_sync_outbox WHERE id = ?`, id)
	return err
}

func (r *Replica) cursor(ctx context.Context, ws string) (string, bool, error) {
	var c string
	err := r.db.QueryRowContext(ctx, `SELECT cursor FROM team_sync_cursors WHERE workspace_id = ?`, ws).Scan(&c)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	return c, err == nil, err
}

func (r *Replica) setCursor(ctx context.Context, ws, c string) error {
	_, err := r.db.ExecContext(ctx, `INSERT INTO team_sync_cursors (workspace_id, cursor) VALUES (?, ?)
		ON CONFLICT (workspace_id) DO UPDATE SET cursor = excluded.cursor`, ws, c)
	return err
}

func (r *Replica) workspaces(ctx context.Context) ([]string, error) {
	rows, err := r.db.QueryContext(ctx, `SELECT DISTINCT workspace_id FROM team_sync_projects ORDER BY workspace_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var w string
		if err := rows.Scan(&w); err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, rows.Err()
}
