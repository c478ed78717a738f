package teamclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/osfoundry/desktop/backend/notes"
)

// Records of synced projects travel like knowledge bases (see
// replica_knowledge.go): a Record channel and its items are sent when
// they differ from the server's copy, and an edit that lost the race is
// kept as a "(your version)" item beside the server's.

// KeptRecord names the person's version of a Record that lost the race:
// Copy is a new item beside Record holding their title, status and body.
type KeptRecord struct {
	Channel string `json:"recordChannelId"`
	Record  string `json:"recordId"`
	Copy    string `json:"copyId"`
	Title   string `json:"title"`
}

// EventKeptRecord carries a KeptRecord to the window.
const EventKeptRecord = "records:kept"

func recordBody(it notes.RecordItem) string {
	b, _ := it.Fields[notes.BodyField].(string)
	return b
}

// allFields is every field of an item (never nil: the server takes an
// empty set as "no other fields").
func allFields(it notes.RecordItem) map[string]any {
	if it.Fields == nil {
		return map[string]any{}
	}
	return it.Fields
}

// syncedChannels is every local Record channel of a synced project, with
// the team workspace it goes to.
func (r *Replica) syncedChannels(ctx context.Context) (map[string]string, []notes.RecordBoard, error) {
	return syncedIn(ctx, r, "record channels", r.notes.RecordBoards,
		func(ch notes.RecordBoard) (string, string) { return ch.ID, ch.Project })
}

// pushRecords sends the Record channels and items of synced projects that
// changed here since the server last had them.
func (r *Replica) pushRecords(ctx context.Context) error {
	wsOf, chs, err := r.syncedChannels(ctx)
	if err != nil {
		return err
	}
	for _, ch := range chs {
		ws := wsOf[ch.ID]
		c, err := r.item(ctx, "rchannel", ch.ID)
		if err != nil {
			return err
		}
		if !c.known {
			var made notes.RecordBoard
			_, err := r.c.Call(ctx, http.MethodPost, "/api/sync/"+url.PathEscape(ws)+"/records",
				map[string]any{"record_channel_id": ch.ID, "project_id": ch.Project, "name": ch.Name, "statuses": ch.Statuses}, &made)
			var refused *APIError
			if errors.As(err, &refused) {
				if err := r.refuseItem(ctx, "rchannel", ch.ID, ch.Project, 0, refused.Message); err != nil {
					return err
				}
				continue
			}
			if err != nil {
				return err
			}
			if err := r.rememberItem(ctx, "rchannel", ch.ID, itemCopy{container: ch.Project, server: 1}); err != nil {
				return err
			}
		} else if c.problemAt != "" {
			continue
		}
		items, err := r.notes.ListRecords(ctx, ch.ID)
		if err != nil {
			return fmt.Errorf("listing the records of %s: %w", ch.Name, err)
		}
		for _, it := range items {
			if err := r.pushRecord(ctx, ws, it); err != nil {
				return err
			}
		}
	}
	return nil
}

// recordAnswer is teamsync's answer to an item write.
type recordAnswer struct {
	notes.RecordItem
	Error string           `json:"error"`
	Now   notes.RecordItem `json:"record"`
}

func (r *Replica) pushRecord(ctx context.Context, ws string, mine notes.RecordItem) error {
	c, err := r.item(ctx, "record", mine.ID)
	if err != nil || (c.known && c.local == mine.Version) {
		return err
	}
	var ans recordAnswer
	code, err := r.c.Call(ctx, http.MethodPost, "/api/sync/"+url.PathEscape(ws)+"/records/"+url.PathEscape(mine.Channel)+"/items/"+url.PathEscape(mine.ID),
		map[string]any{"expected_version": c.server, "title": mine.Title, "status": mine.Status, "body": recordBody(mine), "fields": allFields(mine)}, &ans)
	var refused *APIError
	if errors.As(err, &refused) {
		if refused.Status == http.StatusNotFound && c.server > 0 {
			return nil // deleted on the server: the pull's delete keeps this edit (dropRecord)
		}
		return r.refuseItem(ctx, "record", mine.ID, mine.Channel, mine.Version, refused.Message)
	}
	if err != nil {
		return err
	}
	if code == http.StatusConflict {
		return r.recordLost(ctx, mine, ans.Now)
	}
	return r.rememberItem(ctx, "record", mine.ID, itemCopy{container: mine.Channel, server: ans.Version, local: mine.Version, title: mine.Title, body: recordBody(mine)})
}

// recordLost keeps the person's item as a new one beside the one it was
// written over, which goes up in turn, and puts the server's in place.
func (r *Replica) recordLost(ctx context.Context, mine, now notes.RecordItem) error {
	title := mine.Title + " (your version)"
	if len(title) > 200 {
		title = title[:200]
	}
	fields := map[string]any{}
	for k, v := range mine.Fields {
		fields[k] = v
	}
	kept, err := r.notes.CreateRecordItem(ctx, mine.Channel, "", title, mine.Status, fields)
	if err != nil {
		return fmt.Errorf("keeping your version of %q: %w", mine.Title, err)
	}
	if err := r.takeRecord(ctx, now, mine.Version); err != nil {
		return err
	}
	r.c.o.Emit.Emit(EventKeptRecord, KeptRecord{Channel: mine.Channel, Record: mine.ID, Copy: kept.ID, Title: mine.Title})
	return nil
}

// takeRecord puts the server's item in place here if the local one is
// still at version local (0: there is none yet), and remembers it.
func (r *Replica) takeRecord(ctx context.Context, it notes.RecordItem, local int64) error {
	var now int64
	if local == 0 {
		made, err := r.notes.CreateRecordItem(ctx, it.Channel, it.ID, it.Title, it.Status, it.Fields)
		if err != nil {
			return fmt.Errorf("taking in record %s: %w", it.ID, err)
		}
		now = made.Version
	} else {
		res, err := r.notes.SaveRecordFieldsAsPerson(ctx, it.Channel, it.ID, local, it.Title, it.Status, allFields(it))
		if err != nil {
			return fmt.Errorf("taking in record %s: %w", it.ID, err)
		}
		if !res.Saved {
			return nil // edited here meanwhile: its send decides
		}
		now = res.Version
	}
	return r.rememberItem(ctx, "record", it.ID, itemCopy{container: it.Channel, server: it.Version, local: now, title: it.Title, body: recordBody(it)})
}

// takeChannel makes a Record channel of a synced project here (same id).
func (r *Replica) takeChannel(ctx context.Context, local string, ch notes.RecordBoard) error {
	if _, err := r.notes.RecordBoardByID(ctx, ch.ID); errors.Is(err, notes.ErrNotFound) {
		if _, err := r.notes.CreateRecordBoardWithID(ctx, local, ch.Project, ch.ID, ch.Name, ch.Statuses); err != nil {
			return fmt.Errorf("making record channel %s here: %w", ch.Name, err)
		}
	} else if err != nil {
		return err
	}
	return r.rememberItem(ctx, "rchannel", ch.ID, itemCopy{container: ch.Project, server: 1})
}

// pullRecord takes in the server's item unless it was edited here since.
func (r *Replica) pullRecord(ctx context.Context, it notes.RecordItem) error {
	if _, err := r.notes.RecordBoardByID(ctx, it.Channel); err != nil {
		if errors.Is(err, notes.ErrNotFound) {
			return nil
		}
		return err
	}
	c, err := r.item(ctx, "record", it.ID)
	if err != nil || (c.known && c.server == it.Version) {
		return err
	}
	local, err := r.notes.GetRecord(ctx, it.Channel, it.ID)
	switch {
	case errors.Is(err, notes.ErrNotFound) && c.known && c.server > 0:
		return nil // deleted here: sending the delete decides
	case errors.Is(err, notes.ErrNotFound):
		local.Version = 0
	case err != nil:
		return err
	case !c.known || local.Version != c.local:
		return nil
	}
	return r.takeRecord(ctx, it, local.Version)
}

// pullRecords takes in a page's channels and items of synced projects.
func (r *Replica) pullRecords(ctx context.Context, ws string, chs []notes.RecordBoard, items []notes.RecordItem) error {
	for _, ch := range chs {
		p, err := r.projectOf(ctx, ch.Project)
		if err != nil {
			return err
		}
		if p.workspace != ws {
			continue
		}
		if err := r.takeChannel(ctx, p.local, ch); err != nil {
			return err
		}
	}
	for _, it := range items {
		if err := r.pullRecord(ctx, it); err != nil {
			return err
		}
	}
	return nil
}

// recordsDirty says whether a channel or item of a synced project changed
// here since the server last had it.
func (r *Replica) recordsDirty(ctx context.Context) (bool, error) {
	_, chs, err := r.syncedChannels(ctx)
	if err != nil {
		return false, err
	}
	for _, ch := range chs {
		c, err := r.item(ctx, "rchannel", ch.ID)
		if err != nil {
			return false, err
		}
		if !c.known {
			return true, nil
		}
		items, err := r.notes.ListRecords(ctx, ch.ID)
		if err != nil {
			return false, err
		}
		for _, it := range items {
			c, err := r.item(ctx, "record", it.ID)
			if err != nil {
				return false, err
			}
			if !c.known || c.local != it.Version {
				return true, nil
			}
		}
	}
	return false, nil
}

// localWorkspaces are the local workspaces holding synced projects.
func (r *Replica) localWorkspaces(ctx context.Context) ([]string, error) {
	rows, err := r.db.QueryContext(ctx, `SELECT DISTINCT local_workspace FROM team_sync_projects`)
	if err != nil {
		return nil, fmt.Errorf("reading the synced projects: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var l string
		if err := rows.Scan(&l); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}
