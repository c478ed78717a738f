package notes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// PutReplica makes the Note noteCopy.ID exactly noteCopy — its version,
// its tabs with their ids, versions and contents — placing it in
// workspace and noteCopy.Project (a synced project's copy lives in the
// desktop's own workspace). It is how a desktop takes in what the team
// server holds: not an edit of anyone, so no version rule, but its
// watchers hear of it like any change so an open editor shows it. The
// project must exist. A tab missing from noteCopy is left as it is (the
// server never deletes tabs).
func (s *Notes) PutReplica(ctx context.Context, workspace string, noteCopy Note) error {
	n := noteCopy
	if err := checkTitle("note title", n.Title); err != nil {
		return err
	}
	type tabRow struct {
		info TabInfo
		data string
	}
	tabs := make([]tabRow, 0, len(n.Tabs))
	for _, t := range n.Tabs {
		data, err := t.data()
		if err != nil {
			return fmt.Errorf("%w: tab %s of note %s: %v", ErrInvalid, t.ID, n.ID, err)
		}
		tabs = append(tabs, tabRow{t.TabInfo, data})
	}
	now := s.now()
	err := s.b.Write(ctx, func(tx Tx) error {
		rows := tx.Notes()
		have, err := rows.Note(ctx, n.ID)
		if errors.Is(err, ErrNotFound) {
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
		for _, t := range tabs {
			tr, err := rows.TabRow(ctx, t.info.ID, true)
			switch {
			case errors.Is(err, ErrNotFound):
				err = rows.InsertTab(ctx, n.ID, t.info, t.data, now)
			case err == nil && tr.NoteID != n.ID:
				err = fmt.Errorf("%w: tab %s belongs to another note", ErrInvalid, t.info.ID)
			case err == nil && (tr.Data != t.data || tr.Tab.Version != t.info.Version):
				err = rows.UpdateTab(ctx, t.info.ID, t.data, t.info.Version, now)
			}
			if err != nil {
				return err
			}
		}
		if have.Version != n.Version {
			ok, err := rows.SetNoteVersionIf(ctx, n.ID, have.Version, n.Version, now)
			if err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("note %s changed while its copy was put", n.ID)
			}
		}
		return nil
	})
	if err != nil {
		return keepOr(err, "putting the copy of note %s: %w", n.ID)
	}
	s.notify(n.ID, n.Version)
	return nil
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
