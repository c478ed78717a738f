package pgnotes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/osfoundry/desktop/backend/notes"
)

// pgRecords keeps Record channels (with their statuses as a JSON list in
// record_channel_statuses) and items (with their fields as a JSON object),
// stored as the same text the SQLite store keeps.
type pgRecords pgTx

var _ notes.RecordRows = pgRecords{}

const recordChannelCols = `id, workspace_id, COALESCE(project_id, ''), name`

func scanRecordChannel(sc pgx.Row) (notes.RecordChannel, error) {
	var c notes.RecordChannel
	return c, sc.Scan(&c.ID, &c.Workspace, &c.Project, &c.Name)
}

func (r pgRecords) InsertChannel(ctx context.Context, c notes.RecordChannel, statuses []string, now time.Time) error {
	sj := ""
	if len(statuses) > 0 {
		b, err := json.Marshal(statuses)
		if err != nil {
			return fmt.Errorf("encoding statuses: %w", err)
		}
		sj = string(b)
	}
	// One statement, so a channel made on the pool never exists without
	// its statuses.
	_, err := pgTx(r).exec(ctx, "creating record channel "+c.ID, `WITH c AS (
			INSERT INTO record_channels (id, workspace_id, project_id, name, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id)
		INSERT INTO record_channel_statuses (channel_id, statuses) SELECT id, $6 FROM c WHERE $6 <> ''`,
		c.ID, c.Workspace, nullable(c.Project), c.Name, stored(now), sj)
	return err
}

func (r pgRecords) Channel(ctx context.Context, id string) (notes.RecordChannel, error) {
	var c notes.RecordChannel
	err := pgTx(r).row(ctx, "record channel "+id, []any{&c.ID, &c.Workspace, &c.Project, &c.Name},
		`SELECT `+recordChannelCols+` FROM record_channels WHERE id = $1`, id)
	return c, err
}

func (r pgRecords) Channels(ctx context.Context, workspace string) ([]notes.RecordChannel, error) {
	return collect(ctx, pgTx(r), "record channels", scanRecordChannel,
		`SELECT `+recordChannelCols+` FROM record_channels WHERE workspace_id = $1 ORDER BY name, id`, workspace)
}

func (r pgRecords) Statuses(ctx context.Context, channel string) ([]string, error) {
	var raw string
	err := pgTx(r).row(ctx, "statuses of "+channel, []any{&raw}, `SELECT statuses FROM record_channel_statuses WHERE channel_id = $1`, channel)
	if errors.Is(err, notes.ErrNotFound) {
		return []string{}, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		return nil, fmt.Errorf("decoding statuses of %s: %w", channel, err)
	}
	return out, nil
}

const recordCols = `id, channel_id, title, status, fields, version, updated_at`

func scanRecord(sc pgx.Row) (notes.RecordItem, error) {
	var it notes.RecordItem
	var fields, upd string
	if err := sc.Scan(&it.ID, &it.Channel, &it.Title, &it.Status, &fields, &it.Version, &upd); err != nil {
		return notes.RecordItem{}, err
	}
	it.UpdatedAt = notes.ParseStoredTime(upd)
	if err := json.Unmarshal([]byte(fields), &it.Fields); err != nil {
		return notes.RecordItem{}, fmt.Errorf("decoding fields of %s: %w", it.ID, err)
	}
	return it, nil
}

func (r pgRecords) InsertItem(ctx context.Context, it notes.RecordItem, now time.Time) error {
	fj, err := json.Marshal(it.Fields)
	if err != nil {
		return fmt.Errorf("encoding record fields: %w", err)
	}
	_, err = pgTx(r).exec(ctx, "adding record "+it.ID, `INSERT INTO record_items (id, channel_id, title, fields, status, version, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`, it.ID, it.Channel, it.Title, string(fj), it.Status, it.Version, stored(now))
	return err
}

func (r pgRecords) Item(ctx context.Context, channel, id string) (notes.RecordItem, error) {
	rows, err := collect(ctx, pgTx(r), "record "+id, scanRecord,
		`SELECT `+recordCols+` FROM record_items WHERE id = $1 AND channel_id = $2`+pgTx(r).locked(), id, channel)
	if err != nil {
		return notes.RecordItem{}, err
	}
	if len(rows) == 0 {
		return notes.RecordItem{}, fmt.Errorf("record %s: %w", id, notes.ErrNotFound)
	}
	return rows[0], nil
}

func (r pgRecords) Items(ctx context.Context, channel string) ([]notes.RecordItem, error) {
	return collect(ctx, pgTx(r), "records of "+channel, scanRecord,
		`SELECT `+recordCols+` FROM record_items WHERE channel_id = $1 ORDER BY created_at, id`, channel)
}

func (r pgRecords) RecentItems(ctx context.Context, channel, status string, limit int) ([]notes.RecordItem, error) {
	q := `SELECT ` + recordCols + ` FROM record_items WHERE channel_id = $1 AND ($2 = '' OR status = $2) ORDER BY updated_at DESC, id LIMIT $3`
	return collect(ctx, pgTx(r), "records", scanRecord, q, channel, status, limit)
}

func (r pgRecords) UpdateItemIfVersion(ctx context.Context, it notes.RecordItem, expected int64, now time.Time) (bool, error) {
	fj, err := json.Marshal(it.Fields)
	if err != nil {
		return false, fmt.Errorf("encoding fields: %w", err)
	}
	if err := storeText("saving record "+it.ID, it.Title, it.Status, string(fj)); err != nil {
		return false, err
	}
	return pgTx(r).ifVersion(ctx, "saving record "+it.ID, `UPDATE record_items SET title = $1, status = $2, fields = $3, version = $4, updated_at = $5
		WHERE id = $6 AND channel_id = $7 AND version = $8`, it.Title, it.Status, string(fj), it.Version, stored(now), it.ID, it.Channel, expected)
}

func (r pgRecords) DeleteItem(ctx context.Context, channel, id string) (bool, error) {
	tag, err := pgTx(r).exec(ctx, "deleting record "+id, `DELETE FROM record_items WHERE id = $1 AND channel_id = $2`, id, channel)
	return err == nil && tag.RowsAffected() > 0, err
}
