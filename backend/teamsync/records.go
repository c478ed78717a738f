package teamsync

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/teamauth"
)

// Record channels of synced projects travel like knowledge bases: numbered
// changes (kinds "rchannel" and "record"), and a desktop's item writes are
// conditional on the version it started from; one that lost answers 409
// with the item as it is now.

// NewRecordChannel is a Record channel a desktop made in a synced project.
type NewRecordChannel struct {
	ID       string   `json:"record_channel_id"`
	Project  string   `json:"project_id"`
	Name     string   `json:"name"`
	Statuses []string `json:"statuses"`
}

// CreateRecordChannel stores a desktop's channel under its id, with its
// statuses; sent again, it answers the channel as it is.
func (s *Service) CreateRecordChannel(ctx context.Context, personID, ws string, in NewRecordChannel) (notes.RecordBoard, error) {
	if err := s.cfg.Auth.Require(ctx, personID, ws, teamauth.Write); err != nil {
		return notes.RecordBoard{}, err
	}
	if !goodID(in.ID, "rc") {
		return notes.RecordBoard{}, badInput("record_channel_id is the desktop's id of the channel (rc-…)")
	}
	if _, err := s.project(ctx, ws, in.Project); err != nil {
		return notes.RecordBoard{}, err
	}
	if have, err := s.cfg.Notes.RecordBoardByID(ctx, in.ID); err == nil {
		if have.Workspace != ws || have.Project != in.Project {
			return have, teamauth.Refuse(http.StatusConflict, "record channel %s already exists elsewhere", in.ID)
		}
		return have, nil
	}
	b, err := s.cfg.Notes.CreateRecordBoardWithID(ctx, ws, in.Project, in.ID, in.Name, in.Statuses)
	if errors.Is(err, notes.ErrInvalid) {
		return b, badInput("%v", err)
	}
	if err != nil {
		if have, gerr := s.cfg.Notes.RecordBoardByID(ctx, in.ID); gerr == nil && have.Workspace == ws {
			return have, nil // a resend raced the first
		}
		return b, fmt.Errorf("creating the record channel: %w", err)
	}
	return b, nil
}

// RecordWrite is a desktop's write of a Record item: a new one
// (expected_version 0) or the person's edit of the version it started from
// (title, status and body, as the Records editor saves them).
type RecordWrite struct {
	ExpectedVersion int64  `json:"expected_version"`
	Title           string `json:"title"`
	Status          string `json:"status"`
	Body            string `json:"body"`
	// Fields, when sent, are every field of the item (assignee, labels,
	// due date, …): the item's fields become these, with Body as the body.
	// Not sent, the item's other fields stay as they are.
	Fields map[string]any `json:"fields,omitempty"`
}

// wanted is the fields a write leaves the item with (nil: other fields
// as they are, only the body set).
func (w RecordWrite) wanted() map[string]any {
	if w.Fields == nil {
		return nil
	}
	out := make(map[string]any, len(w.Fields)+1)
	for k, v := range w.Fields {
		out[k] = v
	}
	delete(out, notes.BodyField)
	if w.Body != "" {
		out[notes.BodyField] = w.Body
	}
	return out
}

// sameFields compares two items' fields as they are stored (JSON).
func sameFields(a, b map[string]any) bool {
	if len(a) == 0 && len(b) == 0 {
		return true
	}
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}

// RecordConflict answers a write that lost (HTTP 409): the item now.
type RecordConflict struct {
	Error  string           `json:"error"` // version_conflict
	Record notes.RecordItem `json:"record"`
}

// HTTPStatus makes teamauth answer a RecordConflict with 409.
func (RecordConflict) HTTPStatus() int { return http.StatusConflict }

// RecordBody is an item's body field ("" when it has none).
func RecordBody(it notes.RecordItem) string {
	b, _ := it.Fields[notes.BodyField].(string)
	return b
}

// WriteRecord creates or edits an item of a synced channel. A write the
// server already holds (a resend whose answer was lost) answers the item.
func (s *Service) WriteRecord(ctx context.Context, personID, ws, channelID, id string, w RecordWrite) (any, error) {
	if err := s.cfg.Auth.Require(ctx, personID, ws, teamauth.Write); err != nil {
		return nil, err
	}
	ch, err := s.cfg.Notes.RecordBoardByID(ctx, channelID)
	if errors.Is(err, notes.ErrNotFound) || (err == nil && ch.Workspace != ws) {
		return nil, teamauth.Refuse(http.StatusNotFound, "no record channel %q in this workspace: is its project still synced?", channelID)
	}
	if err != nil {
		return nil, fmt.Errorf("reading the record channel: %w", err)
	}
	if !goodID(id, "rec") {
		return nil, badInput("the item id is the desktop's (rec-…)")
	}
	cur, err := s.cfg.Notes.GetRecord(ctx, channelID, id)
	found := err == nil
	if err != nil && !errors.Is(err, notes.ErrNotFound) {
		return nil, fmt.Errorf("reading the record: %w", err)
	}
	want := w.wanted()
	if found && cur.Title == w.Title && cur.Status == w.Status && RecordBody(cur) == w.Body && (want == nil || sameFields(cur.Fields, want)) {
		return cur, nil
	}
	if w.ExpectedVersion == 0 {
		if found {
			return RecordConflict{Error: "version_conflict", Record: cur}, nil
		}
		if len(ch.Statuses) > 0 && !slices.Contains(ch.Statuses, w.Status) {
			return nil, badInput("status %q is not one of this channel's statuses (%s)", w.Status, strings.Join(ch.Statuses, ", "))
		}
		fields := want
		if fields == nil {
			fields = map[string]any{}
			if w.Body != "" {
				fields[notes.BodyField] = w.Body
			}
		}
		it, err := s.cfg.Notes.CreateRecordItem(ctx, channelID, id, w.Title, w.Status, fields)
		if errors.Is(err, notes.ErrInvalid) {
			return nil, badInput("%v", err)
		}
		if err != nil {
			if have, gerr := s.cfg.Notes.GetRecord(ctx, channelID, id); gerr == nil {
				return have, nil // a resend raced the first
			}
			return nil, fmt.Errorf("creating the record: %w", err)
		}
		return it, nil
	}
	if !found {
		return nil, teamauth.Refuse(http.StatusNotFound, "record %s is no longer in this channel", id)
	}
	var res notes.RecordSaveResult
	if want != nil {
		res, err = s.cfg.Notes.SaveRecordFieldsAsPerson(ctx, channelID, id, w.ExpectedVersion, w.Title, w.Status, want)
	} else {
		res, err = s.cfg.Notes.SaveRecordAsPerson(ctx, channelID, id, w.ExpectedVersion, notes.RecordEdit{Title: w.Title, Status: w.Status, Body: w.Body})
	}
	if errors.Is(err, notes.ErrInvalid) {
		return nil, badInput("%v", err)
	}
	if errors.Is(err, notes.ErrNotFound) {
		return nil, teamauth.Refuse(http.StatusNotFound, "record %s is no longer in this channel", id)
	}
	if err != nil {
		return nil, fmt.Errorf("saving the record: %w", err)
	}
	if !res.Saved {
		return RecordConflict{Error: "version_conflict", Record: *res.Current}, nil
	}
	// The item as this write left it, not re-read: a teammate's write may
	// have landed since, and the desktop remembers the answer as the version
	// its text is on (told the newer one, it would keep its text and never
	// take theirs).
	return *res.Item, nil
}

func (s *Service) createRecordChannel(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	var in NewRecordChannel
	if err := teamauth.ReadJSON(r, &in); err != nil {
		return nil, err
	}
	return s.CreateRecordChannel(r.Context(), p.ID, r.PathValue("ws"), in)
}

func (s *Service) writeRecord(_ http.ResponseWriter, r *http.Request, p teamauth.Person) (any, error) {
	var in RecordWrite
	if err := teamauth.ReadJSON(r, &in); err != nil {
		return nil, err
	}
	return s.WriteRecord(r.Context(), p.ID, r.PathValue("ws"), r.PathValue("channel"), r.PathValue("item"), in)
}

// fillRecords adds a "rchannel" or "record" change's current state to f.
func (s *Service) fillRecords(ctx context.Context, ws string, c Change, f *Feed) error {
	chID, itemID, isItem := strings.Cut(c.ID, "/")
	ch, err := s.cfg.Notes.RecordBoardByID(ctx, chID)
	if errors.Is(err, notes.ErrNotFound) || (err == nil && ch.Workspace != ws) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading record channel %s: %w", chID, err)
	}
	if !isItem {
		f.RecordChannels = append(f.RecordChannels, ch)
		return nil
	}
	it, err := s.cfg.Notes.GetRecord(ctx, chID, itemID)
	if errors.Is(err, notes.ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading record %s: %w", c.ID, err)
	}
	f.Records = append(f.Records, it)
	return nil
}

// projectRecords is a project's Record channels and items now.
func (s *Service) projectRecords(ctx context.Context, ws, project string) ([]notes.RecordBoard, []notes.RecordItem, error) {
	all, err := s.cfg.Notes.RecordBoards(ctx, ws)
	if err != nil {
		return nil, nil, fmt.Errorf("listing record channels: %w", err)
	}
	chs, items := []notes.RecordBoard{}, []notes.RecordItem{}
	for _, ch := range all {
		if ch.Project != project {
			continue
		}
		chs = append(chs, ch)
		list, err := s.cfg.Notes.ListRecords(ctx, ch.ID)
		if err != nil {
			return nil, nil, fmt.Errorf("listing records of %s: %w", ch.ID, err)
		}
		items = append(items, list...)
	}
	return chs, items, nil
}
