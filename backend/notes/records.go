package notes

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/osfoundry/desktop/backend/store"
)

// RecordsComponent is the Records screen's schema in schema_migrations: a
// channel's list of statuses lives beside the channel so the Notes schema
// stays as it is. A channel without a list accepts any status (channels
// made before statuses existed, or by a tool that set none).
const RecordsComponent = "records"

var recordMigrations = []store.Migration{
	{Version: 1, SQL: `
CREATE TABLE record_channel_statuses (
	channel_id TEXT PRIMARY KEY REFERENCES record_channels(id) ON DELETE CASCADE,
	statuses   TEXT NOT NULL
);
`},
}

// BodyField is the Record field the person's editor shows as the item's
// Markdown body; agents read and write it as any other field.
const BodyField = "body"

// MaxStatuses bounds a channel's list of statuses.
const MaxStatuses = 30

// RecordBoard is a Record channel with its list of statuses (empty: any).
type RecordBoard struct {
	RecordChannel
	Statuses []string `json:"statuses"`
}

// ParseStatuses splits "a,b,c" into a clean list: trimmed, no empties, no
// duplicates, each a valid title.
func ParseStatuses(list string) ([]string, error) {
	out := []string{}
	for _, st := range strings.Split(list, ",") {
		st = strings.TrimSpace(st)
		if st == "" {
			continue
		}
		if err := checkTitle("status", st); err != nil {
			return nil, err
		}
		if slices.Contains(out, st) {
			return nil, fmt.Errorf("%w: status %q is listed twice", ErrInvalid, st)
		}
		out = append(out, st)
	}
	if len(out) > MaxStatuses {
		return nil, fmt.Errorf("%w: a channel has at most %d statuses, got %d", ErrInvalid, MaxStatuses, len(out))
	}
	return out, nil
}

// CreateRecordBoard creates a Record channel with its statuses (none: any
// status is accepted).
func (s *Store) CreateRecordBoard(ctx context.Context, workspace, project, name string, statuses []string) (RecordBoard, error) {
	clean, err := ParseStatuses(strings.Join(statuses, ","))
	if err != nil {
		return RecordBoard{}, fmt.Errorf("creating record channel %q: %w", name, err)
	}
	c, err := s.CreateRecordChannel(ctx, workspace, project, "", name)
	if err != nil {
		return RecordBoard{}, err
	}
	if len(clean) > 0 {
		sj, _ := json.Marshal(clean)
		if _, err := s.db.ExecContext(ctx, `INSERT INTO record_channel_statuses (channel_id, statuses) VALUES (?, ?)`, c.ID, string(sj)); err != nil {
			return RecordBoard{}, fmt.Errorf("saving statuses of %q: %w", name, lockErr(err))
		}
	}
	return RecordBoard{RecordChannel: c, Statuses: clean}, nil
}

// RecordBoards lists a workspace's Record channels with their statuses.
func (s *Store) RecordBoards(ctx context.Context, workspace string) ([]RecordBoard, error) {
	cs, err := s.ListRecordChannels(ctx, workspace)
	if err != nil {
		return nil, err
	}
	out := make([]RecordBoard, 0, len(cs))
	for _, c := range cs {
		st, err := s.recordStatuses(ctx, s.db, c.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, RecordBoard{RecordChannel: c, Statuses: st})
	}
	return out, nil
}

// RecordBoardByID returns one channel with its statuses.
func (s *Store) RecordBoardByID(ctx context.Context, channelID string) (RecordBoard, error) {
	var c RecordChannel
	err := s.db.QueryRowContext(ctx, `SELECT id, workspace_id, COALESCE(project_id, ''), name FROM record_channels WHERE id = ?`, channelID).
		Scan(&c.ID, &c.Workspace, &c.Project, &c.Name)
	if errors.Is(err, sql.ErrNoRows) {
		return RecordBoard{}, fmt.Errorf("record channel %s: %w", channelID, ErrNotFound)
	}
	if err != nil {
		return RecordBoard{}, fmt.Errorf("reading record channel %s: %w", channelID, lockErr(err))
	}
	st, err := s.recordStatuses(ctx, s.db, channelID)
	if err != nil {
		return RecordBoard{}, err
	}
	return RecordBoard{RecordChannel: c, Statuses: st}, nil
}

func (s *Store) recordStatuses(ctx context.Context, q querier, channelID string) ([]string, error) {
	var raw string
	err := q.QueryRowContext(ctx, `SELECT statuses FROM record_channel_statuses WHERE channel_id = ?`, channelID).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return []string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading statuses of %s: %w", channelID, lockErr(err))
	}
	var out []string
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		return nil, fmt.Errorf("decoding statuses of %s: %w", channelID, err)
	}
	return out, nil
}

// statusRefusal says why status is not accepted in a channel, or "".
func statusRefusal(status string, allowed []string) string {
	if len(allowed) == 0 || slices.Contains(allowed, status) {
		return ""
	}
	return fmt.Sprintf("status %q is not one of this channel's statuses (%s); use one of those exactly as written",
		status, strings.Join(allowed, ", "))
}

// AddRecord adds an item to a channel; status "" takes the channel's first
// status. A status outside the channel's list is refused (ErrInvalid).
func (s *Store) AddRecord(ctx context.Context, channelID, title, status, body string) (RecordItem, error) {
	b, err := s.RecordBoardByID(ctx, channelID)
	if err != nil {
		return RecordItem{}, fmt.Errorf("adding record %q: %w", title, err)
	}
	if status == "" && len(b.Statuses) > 0 {
		status = b.Statuses[0]
	}
	if why := statusRefusal(status, b.Statuses); why != "" {
		return RecordItem{}, fmt.Errorf("%w: %s", ErrInvalid, why)
	}
	fields := map[string]any{}
	if body != "" {
		fields[BodyField] = body
	}
	return s.CreateRecordItem(ctx, channelID, "", title, status, fields)
}

// ListRecords returns a channel's items, oldest first (a board's order).
func (s *Store) ListRecords(ctx context.Context, channelID string) ([]RecordItem, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+recordCols+` FROM record_items WHERE channel_id = ? ORDER BY created_at, id`, channelID)
	if err != nil {
		return nil, fmt.Errorf("listing records of %s: %w", channelID, lockErr(err))
	}
	defer rows.Close()
	out := []RecordItem{}
	for rows.Next() {
		r, err := scanRecord(rows)
		if err != nil {
			return nil, fmt.Errorf("listing records of %s: %w", channelID, err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// GetRecord returns one item of a channel.
func (s *Store) GetRecord(ctx context.Context, channelID, itemID string) (RecordItem, error) {
	return s.recordItem(ctx, channelID, itemID)
}

// RecordEdit is what the person's editor saves: title, status and body.
// Other fields are left as they are.
type RecordEdit struct {
	Title  string `json:"title"`
	Status string `json:"status"`
	Body   string `json:"body"`
}

// RecordSaveResult is the outcome of the person's conditional save.
type RecordSaveResult struct {
	Saved bool `json:"saved"`
	// Version is the item's new version when saved, its current one on a conflict.
	Version int64 `json:"version"`
	// Current is the item as stored now, set on a conflict so the editor
	// can compare and re-apply.
	Current *RecordItem `json:"current,omitempty"`
}

// SaveRecordAsPerson saves the person's edit if the item is still at
// expected; on a conflict nothing is written and Current carries the item
// as it is now. Errors: ErrNotFound, ErrInvalid (title, status, body).
func (s *Store) SaveRecordAsPerson(ctx context.Context, channelID, itemID string, expected int64, e RecordEdit) (RecordSaveResult, error) {
	if err := checkTitle("record title", e.Title); err != nil {
		return RecordSaveResult{}, err
	}
	if len(e.Body) > MaxFieldBytes {
		return RecordSaveResult{}, fmt.Errorf("%w: the body is %d bytes; a record body holds at most %d bytes", ErrInvalid, len(e.Body), MaxFieldBytes)
	}
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return RecordSaveResult{}, fmt.Errorf("saving record %s: %w", itemID, err)
	}
	defer tx.Rollback()
	item, err := scanRecord(tx.QueryRowContext(ctx, `SELECT `+recordCols+` FROM record_items WHERE id = ? AND channel_id = ?`, itemID, channelID))
	if errors.Is(err, sql.ErrNoRows) {
		return RecordSaveResult{}, fmt.Errorf("saving: record %s of channel %s: %w", itemID, channelID, ErrNotFound)
	}
	if err != nil {
		return RecordSaveResult{}, fmt.Errorf("saving record %s: %w", itemID, lockErr(err))
	}
	if s.opts.Scope != ScopeNone && item.Version != expected {
		return RecordSaveResult{Version: item.Version, Current: &item}, nil
	}
	allowed, err := s.recordStatuses(ctx, tx, channelID)
	if err != nil {
		return RecordSaveResult{}, err
	}
	if why := statusRefusal(e.Status, allowed); why != "" {
		return RecordSaveResult{}, fmt.Errorf("%w: %s", ErrInvalid, why)
	}
	if item.Fields == nil {
		item.Fields = map[string]any{}
	}
	if e.Body == "" {
		delete(item.Fields, BodyField)
	} else {
		item.Fields[BodyField] = e.Body
	}
	fj, err := json.Marshal(item.Fields)
	if err != nil {
		return RecordSaveResult{}, fmt.Errorf("encoding fields: %w", err)
	}
	next := s.nextVersion(item.Version)
	if _, err := tx.ExecContext(ctx, `UPDATE record_items SET title = ?, status = ?, fields = ?, version = ?, updated_at = ?
		WHERE id = ? AND version = ?`, e.Title, e.Status, string(fj), next, formatTime(s.now()), itemID, item.Version); err != nil {
		return RecordSaveResult{}, fmt.Errorf("saving record %s: %w", itemID, lockErr(err))
	}
	if err := tx.Commit(); err != nil {
		return RecordSaveResult{}, fmt.Errorf("saving record %s: committing: %w", itemID, lockErr(err))
	}
	return RecordSaveResult{Saved: true, Version: next}, nil
}
