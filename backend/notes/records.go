package notes

import (
	"context"
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

// Records is the Record channels — each with its own list of statuses —
// and their items: the Records screen, `osfoundry records` and the
// list/read/edit_record_item tools all go through it.
type Records struct{ *core }

// CreateRecordChannel creates a Record channel that accepts any status;
// id "" picks a fresh one.
func (r *Records) CreateRecordChannel(ctx context.Context, workspace, project, id, name string) (RecordChannel, error) {
	b, err := r.createChannel(ctx, workspace, project, id, name, nil)
	return b.RecordChannel, err
}

// CreateRecordBoard creates a Record channel with its statuses (none: any
// status is accepted).
func (r *Records) CreateRecordBoard(ctx context.Context, workspace, project, name string, statuses []string) (RecordBoard, error) {
	clean, err := ParseStatuses(strings.Join(statuses, ","))
	if err != nil {
		return RecordBoard{}, fmt.Errorf("creating record channel %q: %w", name, err)
	}
	return r.createChannel(ctx, workspace, project, "", name, clean)
}

// CreateRecordBoardWithID is CreateRecordBoard under a given id: a synced
// project's channel keeps its id on the team server and every desktop.
func (r *Records) CreateRecordBoardWithID(ctx context.Context, workspace, project, id, name string, statuses []string) (RecordBoard, error) {
	clean, err := ParseStatuses(strings.Join(statuses, ","))
	if err != nil {
		return RecordBoard{}, fmt.Errorf("creating record channel %q: %w", name, err)
	}
	return r.createChannel(ctx, workspace, project, id, name, clean)
}

func (r *Records) createChannel(ctx context.Context, workspace, project, id, name string, statuses []string) (RecordBoard, error) {
	if err := checkTitle("record channel name", name); err != nil {
		return RecordBoard{}, err
	}
	if err := r.checkPlacement(ctx, r.b.Pool().Places(), workspace, project); err != nil {
		return RecordBoard{}, fmt.Errorf("creating record channel %q: %w", name, err)
	}
	c := RecordChannel{ID: orNewID(id, "rc"), Workspace: workspace, Project: project, Name: name}
	err := r.b.Write(ctx, func(tx Tx) error { return tx.Records().InsertChannel(ctx, c, statuses, r.now()) })
	if err != nil {
		return RecordBoard{}, fmt.Errorf("creating record channel %q: %w", name, lockErr(err))
	}
	if statuses == nil {
		statuses = []string{}
	}
	return RecordBoard{RecordChannel: c, Statuses: statuses}, nil
}

// MoveRecordChannel puts a Record channel in another project.
func (r *Records) MoveRecordChannel(ctx context.Context, channelID, projectID string) error {
	return r.move(ctx, ResourceRecordChannel, channelID, projectID)
}

// ListRecordChannels returns a workspace's Record channels by name, with
// their project ("" for a channel outside every project). The Connected
// panel offers the ones outside a connection's projects for an explicit
// invite.
func (r *Records) ListRecordChannels(ctx context.Context, workspace string) ([]RecordChannel, error) {
	return r.b.Pool().Records().Channels(ctx, workspace)
}

// RecordBoards lists a workspace's Record channels with their statuses.
func (r *Records) RecordBoards(ctx context.Context, workspace string) ([]RecordBoard, error) {
	rows := r.b.Pool().Records()
	cs, err := rows.Channels(ctx, workspace)
	if err != nil {
		return nil, err
	}
	out := make([]RecordBoard, 0, len(cs))
	for _, c := range cs {
		st, err := rows.Statuses(ctx, c.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, RecordBoard{RecordChannel: c, Statuses: st})
	}
	return out, nil
}

// RecordBoardByID returns one channel with its statuses.
func (r *Records) RecordBoardByID(ctx context.Context, channelID string) (RecordBoard, error) {
	rows := r.b.Pool().Records()
	c, err := rows.Channel(ctx, channelID)
	if err != nil {
		return RecordBoard{}, err
	}
	st, err := rows.Statuses(ctx, channelID)
	if err != nil {
		return RecordBoard{}, err
	}
	return RecordBoard{RecordChannel: c, Statuses: st}, nil
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
func (r *Records) AddRecord(ctx context.Context, channelID, title, status, body string) (RecordItem, error) {
	b, err := r.RecordBoardByID(ctx, channelID)
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
	return r.CreateRecordItem(ctx, channelID, "", title, status, fields)
}

// CreateRecordItem adds an item at version 1; id "" picks a fresh one.
func (r *Records) CreateRecordItem(ctx context.Context, channelID, id, title, status string, fields map[string]any) (RecordItem, error) {
	if err := checkTitle("record title", title); err != nil {
		return RecordItem{}, err
	}
	if fields == nil {
		fields = map[string]any{}
	}
	if err := checkFields(fields); err != nil {
		return RecordItem{}, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	rows := r.b.Pool().Records()
	if _, err := rows.Channel(ctx, channelID); err != nil {
		return RecordItem{}, fmt.Errorf("creating record %q: %w", title, err)
	}
	it := RecordItem{ID: orNewID(id, "rec"), Channel: channelID, Title: title, Status: status, Fields: fields, Version: 1}
	if err := rows.InsertItem(ctx, it, r.now()); err != nil {
		return RecordItem{}, fmt.Errorf("creating record %q: %w", title, err)
	}
	r.notifyItem("record", it.ID)
	return rows.Item(ctx, channelID, it.ID)
}

// ListRecords returns a channel's items, oldest first (a board's order).
func (r *Records) ListRecords(ctx context.Context, channelID string) ([]RecordItem, error) {
	return r.b.Pool().Records().Items(ctx, channelID)
}

// GetRecord returns one item of a channel.
func (r *Records) GetRecord(ctx context.Context, channelID, itemID string) (RecordItem, error) {
	return r.b.Pool().Records().Item(ctx, channelID, itemID)
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
	// Item is the item as this save left it, set when saved: a reply that
	// re-read it could carry a write that landed since.
	Item *RecordItem `json:"item,omitempty"`
}

// SaveRecordAsPerson saves the person's edit if the item is still at
// expected; on a conflict nothing is written and Current carries the item
// as it is now. Errors: ErrNotFound, ErrInvalid (title, status, body).
func (r *Records) SaveRecordAsPerson(ctx context.Context, channelID, itemID string, expected int64, e RecordEdit) (RecordSaveResult, error) {
	if err := checkTitle("record title", e.Title); err != nil {
		return RecordSaveResult{}, err
	}
	if len(e.Body) > MaxFieldBytes {
		return RecordSaveResult{}, fmt.Errorf("%w: the body is %d bytes; a record body holds at most %d bytes", ErrInvalid, len(e.Body), MaxFieldBytes)
	}
	var out RecordSaveResult
	err := r.b.Write(ctx, func(tx Tx) error {
		item, err := tx.Records().Item(ctx, channelID, itemID)
		if errors.Is(err, ErrNotFound) {
			return errKeep{fmt.Errorf("saving: record %s of channel %s: %w", itemID, channelID, ErrNotFound)}
		}
		if err != nil {
			return err
		}
		if r.opts.Scope != ScopeNone && item.Version != expected {
			out = RecordSaveResult{Version: item.Version, Current: &item}
			return nil
		}
		allowed, err := tx.Records().Statuses(ctx, channelID)
		if err != nil {
			return errKeep{err}
		}
		if why := statusRefusal(e.Status, allowed); why != "" {
			return errKeep{fmt.Errorf("%w: %s", ErrInvalid, why)}
		}
		if item.Fields == nil {
			item.Fields = map[string]any{}
		}
		if e.Body == "" {
			delete(item.Fields, BodyField)
		} else {
			item.Fields[BodyField] = e.Body
		}
		cur, now := item.Version, r.now()
		item.Title, item.Status, item.Version, item.UpdatedAt = e.Title, e.Status, r.nextVersion(cur), parseTime(formatTime(now))
		if _, err := tx.Records().UpdateItemIfVersion(ctx, item, cur, now); err != nil {
			return err
		}
		out = RecordSaveResult{Saved: true, Version: item.Version, Item: &item}
		return nil
	})
	if err != nil {
		return RecordSaveResult{}, keepOr(err, "saving record %s: %w", itemID)
	}
	if out.Saved {
		r.notifyItem("record", itemID)
	}
	return out, nil
}
