package notes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// sqliteRecords keeps Record channels (record_channels, with their statuses
// as a JSON list in record_channel_statuses) and items (record_items, with
// their free-form fields as a JSON object).
type sqliteRecords sqliteTx

var _ RecordRows = sqliteRecords{}

const recordChannelCols = `id, workspace_id, COALESCE(project_id, ''), name`

func scanRecordChannel(sc scanner) (RecordChannel, error) {
	var c RecordChannel
	return c, sc.Scan(&c.ID, &c.Workspace, &c.Project, &c.Name)
}

func (r sqliteRecords) InsertChannel(ctx context.Context, c RecordChannel, statuses []string, now time.Time) error {
	if _, err := sqliteTx(r).exec(ctx, `INSERT INTO record_channels (id, workspace_id, project_id, name, created_at) VALUES (?, ?, ?, ?, ?)`,
		c.ID, c.Workspace, nullable(c.Project), c.Name, formatTime(now)); err != nil {
		return err
	}
	if len(statuses) == 0 {
		return nil
	}
	sj, err := json.Marshal(statuses)
	if err != nil {
		return fmt.Errorf("encoding statuses: %w", err)
	}
	_, err = sqliteTx(r).exec(ctx, `INSERT INTO record_channel_statuses (channel_id, statuses) VALUES (?, ?)`, c.ID, string(sj))
	return err
}

func (r sqliteRecords) Channel(ctx context.Context, id string) (RecordChannel, error) {
	c, err := scanRecordChannel(r.q.QueryRowContext(ctx, `SELECT `+recordChannelCols+` FROM record_channels WHERE id = ?`, id))
	return c, rowErr(err, "record channel "+id)
}

func (r sqliteRecords) Channels(ctx context.Context, workspace string) ([]RecordChannel, error) {
	return collect(ctx, r.q, "record channels", scanRecordChannel,
		`SELECT `+recordChannelCols+` FROM record_channels WHERE workspace_id = ? ORDER BY name, id`, workspace)
}

func (r sqliteRecords) Statuses(ctx context.Context, channel string) ([]string, error) {
	var raw string
	err := r.q.QueryRowContext(ctx, `SELECT statuses FROM record_channel_statuses WHERE channel_id = ?`, channel).Scan(&raw)
	if err := rowErr(err, "statuses of "+channel); err != nil {
		if errors.Is(err, ErrNotFound) {
			return []string{}, nil
		}
		return nil, err
	}
	var out []string
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		return nil, fmt.Errorf("decoding statuses of %s: %w", channel, err)
	}
	return out, nil
}

const recordCols = `id, channel_id, title, status, fields, version, updated_at`

func scanRecord(sc scanner) (RecordItem, error) {
	var it RecordItem
	var fields, upd string
	if err := sc.Scan(&it.ID, &it.Channel, &it.Title, &it.Status, &fields, &it.Version, &upd); err != nil {
		return RecordItem{}, err
	}
	it.UpdatedAt = parseTime(upd)
	if err := json.Unmarshal([]byte(fields), &it.Fields); err != nil {
		return RecordItem{}, fmt.Errorf("decoding fields of %s: %w", it.ID, err)
	}
	return it, nil
}

func (r sqliteRecords) InsertItem(ctx context.Context, it RecordItem, now time.Time) error {
	fj, err := json.Marshal(it.Fields)
	if err != nil {
		return fmt.Errorf("encoding record fields: %w", err)
	}
	_, err = sqliteTx(r).exec(ctx, `INSERT INTO record_items (id, channel_id, title, fields, status, version, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, it.ID, it.Channel, it.Title, string(fj), it.Status, it.Version, formatTime(now), formatTime(now))
	return err
}

func (r sqliteRecords) Item(ctx context.Context, channel, id string) (RecordItem, error) {
	it, err := scanRecord(r.q.QueryRowContext(ctx, `SELECT `+recordCols+` FROM record_items WHERE id = ? AND channel_id = ?`, id, channel))
	return it, rowErr(err, "record "+id)
}

func (r sqliteRecords) Items(ctx context.Context, channel string) ([]RecordItem, error) {
	return collect(ctx, r.q, "records of "+channel, scanRecord,
		`SELECT `+recordCols+` FROM record_items WHERE channel_id = ? ORDER BY created_at, id`, channel)
}

func (r sqliteRecords) RecentItems(ctx context.Context, channel, status string, limit int) ([]RecordItem, error) {
	q := `SELECT ` + recordCols + ` FROM record_items WHERE channel_id = ?`
	args := []any{channel}
	if status != "" {
		q += ` AND status = ?`
		args = append(args, status)
	}
	return collect(ctx, r.q, "records", scanRecord, q+` ORDER BY updated_at DESC, id LIMIT ?`, append(args, limit)...)
}

func (r sqliteRecords) UpdateItemIfVersion(ctx context.Context, it RecordItem, expected int64, now time.Time) (bool, error) {
	fj, err := json.Marshal(it.Fields)
	if err != nil {
		return false, fmt.Errorf("encoding fields: %w", err)
	}
	res, err := sqliteTx(r).exec(ctx, `UPDATE record_items SET title = ?, status = ?, fields = ?, version = ?, updated_at = ?
		WHERE id = ? AND channel_id = ? AND version = ?`, it.Title, it.Status, string(fj), it.Version, formatTime(now), it.ID, it.Channel, expected)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func (r sqliteRecords) DeleteItem(ctx context.Context, channel, id string) (bool, error) {
	res, err := sqliteTx(r).exec(ctx, `DELETE FROM record_items WHERE id = ? AND channel_id = ?`, id, channel)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}
