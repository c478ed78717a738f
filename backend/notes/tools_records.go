package notes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/osfoundry/desktop/backend/tools"
)

var (
	channelIDField = idField("record_channel_id", "The Record channel's ID from list_project_resources.")
	itemIDField    = idField("item_id", "The Record item's ID from list_record_items.")
	recordVersion  = field{name: "expected_version", required: true, check: checkVersion, schema: map[string]any{
		"type": "integer", "minimum": 1,
		"description": "The item's version from your latest read_record_item or list_record_items. The write is refused if the item changed since.",
	}}
)

// checkFields bounds a Record's field map.
func checkFields(f map[string]any) error {
	if len(f) > MaxRecordFields {
		return fmt.Errorf("a Record holds at most %d fields, got %d", MaxRecordFields, len(f))
	}
	for k, v := range f {
		if k == "" || len(k) > MaxTitleChars {
			return fmt.Errorf("field names must be 1–%d characters", MaxTitleChars)
		}
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("field %q: %w", k, err)
		}
		if len(b) > MaxFieldBytes {
			return fmt.Errorf("field %q is larger than %d bytes", k, MaxFieldBytes)
		}
	}
	return nil
}

// channelFor refuses a channel outside the call's workspace as not found.
func (s *Records) channelFor(ctx context.Context, ws, id string) *tools.Result {
	c, err := s.b.Pool().Records().Channel(ctx, id)
	if err != nil || c.Workspace != ws {
		return notFound(fmt.Sprintf("record channel %s not found; use list_project_resources to find Record channel IDs", id))
	}
	return nil
}

type listRecordsArgs struct {
	Channel string `json:"record_channel_id"`
	Status  string `json:"status"`
	Limit   int    `json:"limit"`
}

func (s *Records) listRecordItemsTool() tools.Tool {
	sp := spec{channelIDField,
		optString("status", "Only items with this status.", 200),
		{name: "limit", schema: map[string]any{"type": "integer", "minimum": 1, "maximum": MaxListLimit, "description": "At most this many items (default 50, max 200)."}},
	}
	return tools.Tool{
		Meta: readMeta(ToolListRecordItems, "List a Record channel's items (ID, title, status, fields, version), most recently changed first.", sp),
		Handler: handler(sp, func(ctx context.Context, c tools.Call, a *listRecordsArgs) (tools.Result, error) {
			if r := s.channelFor(ctx, c.Workspace, a.Channel); r != nil {
				return *r, nil
			}
			if a.Limit == 0 {
				a.Limit = DefaultListLimit
			}
			items, err := s.b.Pool().Records().RecentItems(ctx, a.Channel, a.Status, a.Limit)
			if err != nil {
				return tools.Result{}, err
			}
			return tools.JSONResult(map[string]any{"record_channel_id": a.Channel, "items": items}), nil
		}),
	}
}

type recordArgs struct {
	Channel string `json:"record_channel_id"`
	Item    string `json:"item_id"`
}

func (s *Records) readRecordItemTool() tools.Tool {
	sp := spec{channelIDField, itemIDField}
	return tools.Tool{
		Meta: readMeta(ToolReadRecordItem, "Read one Record item with its version; pass that version to edit_record_item.", sp),
		Handler: handler(sp, func(ctx context.Context, c tools.Call, a *recordArgs) (tools.Result, error) {
			if r := s.channelFor(ctx, c.Workspace, a.Channel); r != nil {
				return *r, nil
			}
			item, err := s.GetRecord(ctx, a.Channel, a.Item)
			if errors.Is(err, ErrNotFound) {
				return tools.ErrorResult(fmt.Sprintf("record %s is not in channel %s; use list_record_items", a.Item, a.Channel)), nil
			}
			if err != nil {
				return tools.Result{}, err
			}
			return tools.JSONResult(item), nil
		}),
	}
}

type editRecordArgs struct {
	Channel  string         `json:"record_channel_id"`
	Item     string         `json:"item_id"`
	Values   map[string]any `json:"values"`
	Expected Version        `json:"expected_version,omitempty"`
	Key      string         `json:"idempotency_key,omitempty"`
}

func (a editRecordArgs) intent() any { a.Expected, a.Key = 0, ""; return a }

func (s *Records) editRecordItemTool() tools.Tool {
	sp := spec{channelIDField, itemIDField, recordVersion, keyField,
		{name: "values", required: true, schema: map[string]any{"type": "object",
			"description": `Fields to change, e.g. {"status": "Fixed"}. "status" and "title" set the item's status and title; null removes a field; other fields are left as they are.`}},
	}
	desc := "Change fields of a Record item. Use the version from read_record_item or list_record_items. " +
		"A repeated idempotency key returns the first result."
	return tools.Tool{Meta: writeMeta(ToolEditRecordItem, desc, sp), Handler: handler(sp, s.editRecordItem)}
}

func (s *Records) editRecordItem(ctx context.Context, c tools.Call, a *editRecordArgs) (tools.Result, error) {
	if len(a.Values) == 0 {
		return tools.ErrorResult("values is empty; name at least one field to change"), nil
	}
	var item RecordItem
	return s.guarded(ctx, writeOp{
		tool: ToolEditRecordItem, workspace: c.Workspace, key: a.Key, intent: a.intent(), expected: int64(a.Expected),
		what: "editing record",
		conflict: func(current int64) tools.Result {
			r := tools.JSONResult(map[string]any{"error": "version_conflict", "record_channel_id": a.Channel, "item_id": a.Item,
				"expected_version": int64(a.Expected), "current_version": current,
				"message": fmt.Sprintf("Not saved: the record changed since you read it (you sent version %d, it is now %d). "+
					"Re-read it with read_record_item, re-apply your intended change, and write again with expected_version %d and a NEW idempotency_key.",
					a.Expected, current, current)})
			r.IsError = true
			return r
		},
		check: func(tx Tx) (int64, *tools.Result, error) {
			missing := notFound(fmt.Sprintf("record %s is not in channel %s; use list_record_items", a.Item, a.Channel))
			ch, err := tx.Records().Channel(ctx, a.Channel)
			if errors.Is(err, ErrNotFound) || (err == nil && ch.Workspace != c.Workspace) {
				return 0, missing, nil
			}
			if err != nil {
				return 0, nil, err
			}
			item, err = tx.Records().Item(ctx, a.Channel, a.Item)
			if errors.Is(err, ErrNotFound) {
				return 0, missing, nil
			}
			if err != nil {
				return 0, nil, err
			}
			return item.Version, nil, nil
		},
		apply: func(tx Tx) (map[string]any, string, int64, error) {
			changed, err := applyValues(&item, a.Values)
			if err != nil {
				return nil, "", 0, err
			}
			if _, ok := a.Values["status"]; ok {
				allowed, err := tx.Records().Statuses(ctx, a.Channel)
				if err != nil {
					return nil, "", 0, err
				}
				if why := statusRefusal(item.Status, allowed); why != "" {
					return nil, "", 0, argErr("%s", why)
				}
			}
			cur := item.Version
			item.Version = s.nextVersion(cur)
			ok, err := tx.Records().UpdateItemIfVersion(ctx, item, cur, s.now())
			if err != nil {
				return nil, "", 0, fmt.Errorf("updating record: %w", err)
			}
			if !ok {
				return nil, "", 0, fmt.Errorf("updating record %s: it changed inside the write transaction", item.ID)
			}
			return map[string]any{"status": "saved", "record_channel_id": a.Channel, "item_id": a.Item,
				"version": item.Version, "changed": changed}, "", 0, nil
		},
	})
}

func applyValues(item *RecordItem, values map[string]any) ([]string, error) {
	if item.Fields == nil {
		item.Fields = map[string]any{}
	}
	changed := make([]string, 0, len(values))
	for k, v := range values {
		switch k {
		case "title", "status":
			str, ok := v.(string)
			if !ok {
				return nil, argErr("values.%s must be a string", k)
			}
			if k == "title" {
				if err := checkTitle("values.title", str); err != nil {
					return nil, argErr("%v", err)
				}
				item.Title = str
			} else {
				if len(str) > MaxTitleChars {
					return nil, argErr("values.status is longer than %d characters", MaxTitleChars)
				}
				item.Status = str
			}
		default:
			if v == nil {
				delete(item.Fields, k)
			} else {
				item.Fields[k] = v
			}
		}
		changed = append(changed, k)
	}
	if err := checkFields(item.Fields); err != nil {
		return nil, argErr("%v", err)
	}
	sort.Strings(changed)
	return changed, nil
}
