package notes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// PutReplica makes the Note noteCopy.ID hold noteCopy's tabs — their ids,
// versions and contents — placing it in workspace and noteCopy.Project (a
// synced project's copy lives in the desktop's own workspace). It is how
// a desktop takes in what the team server holds: not an edit of anyone,
// so no version rule, but its watchers hear of it like any change so an
// open editor shows it. The project must exist. A tab missing from
// noteCopy is left as it is (the server never deletes tabs).
//
// The Note's version here only ever moves forward: a new Note takes
// noteCopy.Version; a copy that changes a tab takes noteCopy.Version or
// the local version plus one, whichever is higher (a local version the
// server gave other text stays unused, so a guarded write made against
// it is refused and every watcher hears of the change); a copy that
// changes nothing only raises the version to noteCopy.Version. It returns
// the Note's version here afterwards.
//
// holds, when not nil, names the text each tab must still hold here (the
// server's copy the desktop last took in): if the person saved other text
// in one of them, nothing is written and ErrEditedHere is returned, so a
// teammate's text never replaces an edit that has not gone up yet. The
// check runs in the write's transaction: a save cannot slip in between.
func (s *Notes) PutReplica(ctx context.Context, workspace string, noteCopy Note, holds map[string]string) (int64, error) {
	n := noteCopy
	if err := checkTitle("note title", n.Title); err != nil {
		return 0, err
	}
	type tabRow struct {
		info TabInfo
		data string
	}
	tabs := make([]tabRow, 0, len(n.Tabs))
	for _, t := range n.Tabs {
		data, err := t.data()
		if err != nil {
			return 0, fmt.Errorf("%w: tab %s of note %s: %v", ErrInvalid, t.ID, n.ID, err)
		}
		tabs = append(tabs, tabRow{t.TabInfo, data})
	}
	now := s.now()
	var version int64
	wrote := false
	err := s.b.Write(ctx, func(tx Tx) error {
		rows := tx.Notes()
		have, err := rows.Note(ctx, n.ID)
		if errors.Is(err, ErrNotFound) {
			version, wrote = n.Version, true
			if err := s.checkPlacement(ctx, tx.Places(), workspace, n.Project); err != nil {
				return err
			}
			info := NoteInfo{ID: n.ID, Workspace: workspace, Project: n.Project, Title: n.Title, Version: n.Version}
			if err := rows.InsertNote(ctx, info, now); err != nil {
				return err
			}
			for _, t := range tabs {
				if err := rows.InsertTab(ctx, n.ID, t.info, t.data, now); err != nil {
					return err
				}
			}
			return nil
		}
		if err != nil {
			return err
		}
		for id, want := range holds {
			tr, err := rows.TabRow(ctx, id, true)
			if err == nil && tr.NoteID == n.ID && tr.Data != want {
				return ErrEditedHere
			}
			if err != nil && !errors.Is(err, ErrNotFound) {
				return err
			}
		}
		changed := false
		for _, t := range tabs {
			tr, err := rows.TabRow(ctx, t.info.ID, true)
			switch {
			case errors.Is(err, ErrNotFound):
				changed = true
				err = rows.InsertTab(ctx, n.ID, t.info, t.data, now)
			case err == nil && tr.NoteID != n.ID:
				err = fmt.Errorf("%w: tab %s belongs to another note", ErrInvalid, t.info.ID)
			case err == nil && (tr.Data != t.data || tr.Tab.Version != t.info.Version):
				changed = changed || tr.Data != t.data
				err = rows.UpdateTab(ctx, t.info.ID, t.data, t.info.Version, now)
			}
			if err != nil {
				return err
			}
		}
		version = max(have.Version, n.Version)
		if changed {
			version = max(have.Version+1, n.Version)
		}
		if version != have.Version {
			ok, err := rows.SetNoteVersionIf(ctx, n.ID, have.Version, version, now)
			if err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("note %s changed while its copy was put", n.ID)
			}
			wrote = true
		}
		return nil
	})
	if err != nil {
		return 0, keepOr(err, "putting the copy of note %s: %w", n.ID)
	}
	if wrote {
		s.notify(n.ID, version)
	}
	return version, nil
}

// data is the stored form of a tab's content (setContent's inverse).
func (t Tab) data() (string, error) {
	var v any
	switch t.Kind {
	case KindText:
		if t.Text == nil {
			return "", nil
		}
		return *t.Text, nil
	case KindSheet:
		v = t.Sheet
	case KindSlides:
		v = t.Slides
	default:
		v = t.Attachment
	}
	b, err := json.Marshal(v)
	return string(b), err
}
