package notes

import (
	"context"
	"errors"
	"fmt"
)

// SaveRecordFieldsAsPerson replaces an item's title, status and every
// field (the body among them) if it is still at expected: a synced
// Record's copy taken whole, assignee, labels, due date and all. On a
// conflict nothing is written and Current is the item as it is now.
// Errors: ErrNotFound, ErrInvalid (title, status, fields).
func (r *Records) SaveRecordFieldsAsPerson(ctx context.Context, channelID, itemID string, expected int64, title, status string, fields map[string]any) (RecordSaveResult, error) {
	if err := checkTitle("record title", title); err != nil {
		return RecordSaveResult{}, err
	}
	if fields == nil {
		fields = map[string]any{}
	}
	if err := checkFields(fields); err != nil {
		return RecordSaveResult{}, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	var out RecordSaveResult
	err := r.b.Write(ctx, func(tx Tx) error {
		out = RecordSaveResult{}
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
		if why := statusRefusal(status, allowed); why != "" {
			return errKeep{fmt.Errorf("%w: %s", ErrInvalid, why)}
		}
		cur, now := item.Version, r.now()
		item.Title, item.Status, item.Fields, item.Version, item.UpdatedAt = title, status, fields, r.nextVersion(cur), parseTime(formatTime(now))
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
