package notes

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// The person's editor saves conditionally too: a stale editor tab must not
// overwrite an agent any more than an agent may overwrite the person (seed:
// "protect the human editor as well"). On a conflict nothing is written and
// the editor gets the tab as it is now, keeps the person's text as a local
// draft and offers compare / re-apply.

// SaveResult is the outcome of a conditional save by the person.
type SaveResult struct {
	Saved bool `json:"saved"`
	// Version is the Note's new version when saved, its current version on a conflict.
	Version    int64 `json:"version"`
	TabVersion int64 `json:"tab_version"`
	// Current is the tab as stored now, set on a conflict so the editor can
	// show a compare view and re-apply the person's change.
	Current *Tab `json:"current,omitempty"`
}

// SaveTabAsPerson replaces a tab's content if the Note (or, in tab scope,
// the tab) is still at expectedVersion. content is the Markdown text of a
// text tab, or the JSON of SheetData / SlidesData for a Sheet or Slides tab.
// Errors: ErrNotFound (no such Note/tab), ErrInvalid (content too large or
// malformed, attachment tab), ErrLocked.
func (s *Store) SaveTabAsPerson(ctx context.Context, noteID, tabID string, expectedVersion int64, content string) (SaveResult, error) {
	return s.personWrite(ctx, noteID, tabID, expectedVersion, func(kind, _ string) (string, error) {
		switch kind {
		case KindText:
			if len(content) > MaxTextBytes {
				return "", fmt.Errorf("%w: text is %d bytes; a tab holds at most %d bytes (1 MiB)", ErrInvalid, len(content), MaxTextBytes)
			}
			return content, nil
		case KindSheet:
			var d SheetData
			if err := strictJSON([]byte(content), &d); err != nil {
				return "", fmt.Errorf("%w: sheet content: %v", ErrInvalid, err)
			}
			if err := d.validate(); err != nil {
				return "", fmt.Errorf("%w: %v", ErrInvalid, err)
			}
			return marshalString(d)
		case KindSlides:
			var d SlidesData
			if err := strictJSON([]byte(content), &d); err != nil {
				return "", fmt.Errorf("%w: slides content: %v", ErrInvalid, err)
			}
			if err := d.validate(); err != nil {
				return "", fmt.Errorf("%w: %v", ErrInvalid, err)
			}
			return marshalString(d)
		}
		return "", fmt.Errorf("%w: %s attachments cannot be edited", ErrInvalid, kind)
	})
}

// SaveCellsAsPerson writes a block of cells (at most 100×100) into a Sheet
// tab if the Note is still at expectedVersion (the Sheet grid's save).
func (s *Store) SaveCellsAsPerson(ctx context.Context, noteID, tabID string, expectedVersion int64, sheetID string, row, col int, values [][]any) (SaveResult, error) {
	if row < 0 || col < 0 {
		return SaveResult{}, fmt.Errorf("%w: row and col must be 0 or more", ErrInvalid)
	}
	return s.personWrite(ctx, noteID, tabID, expectedVersion, func(kind, data string) (string, error) {
		if kind != KindSheet {
			return "", fmt.Errorf("%w: tab %s is a %s tab, not a Sheet", ErrInvalid, tabID, kind)
		}
		var d SheetData
		if err := json.Unmarshal([]byte(data), &d); err != nil {
			return "", fmt.Errorf("decoding sheet: %w", err)
		}
		sh, err := d.find(sheetID)
		if err != nil {
			return "", fmt.Errorf("%w: %v", ErrInvalid, err)
		}
		if err := sh.set(row, col, values); err != nil {
			return "", fmt.Errorf("%w: %v", ErrInvalid, err)
		}
		return marshalString(d)
	})
}

// personWrite is the person's guarded write: no idempotency key (the editor
// is in-process, a save is never resent blindly), same version rule.
func (s *Store) personWrite(ctx context.Context, noteID, tabID string, expected int64, build func(kind, data string) (string, error)) (SaveResult, error) {
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return SaveResult{}, fmt.Errorf("saving tab %s: %w", tabID, err)
	}
	defer tx.Rollback()
	var owner, kind, data string
	var noteV, tabV int64
	err = tx.QueryRowContext(ctx, `SELECT n.version, t.note_id, t.kind, t.version, t.data
		FROM note_tabs t JOIN notes n ON n.id = t.note_id WHERE t.id = ?`, tabID).Scan(&noteV, &owner, &kind, &tabV, &data)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && owner != noteID) {
		return SaveResult{}, fmt.Errorf("saving: tab %s of note %s: %w", tabID, noteID, ErrNotFound)
	}
	if err != nil {
		return SaveResult{}, fmt.Errorf("saving tab %s: %w", tabID, lockErr(err))
	}
	current := noteV
	if s.opts.Scope == ScopeTab {
		current = tabV
	}
	if s.opts.Scope != ScopeNone && current != expected {
		tx.Rollback()
		t := Tab{TabInfo: TabInfo{ID: tabID, Kind: kind, Version: tabV}}
		if err := t.setContent(data); err != nil {
			return SaveResult{}, fmt.Errorf("decoding tab %s: %w", tabID, err)
		}
		return SaveResult{Version: noteV, TabVersion: tabV, Current: &t}, nil
	}
	newData, err := build(kind, data)
	if err != nil {
		return SaveResult{}, err
	}
	now := formatTime(s.now())
	nextTab := s.nextVersion(tabV)
	if _, err := tx.ExecContext(ctx, `UPDATE note_tabs SET data = ?, version = ?, updated_at = ? WHERE id = ?`, newData, nextTab, now, tabID); err != nil {
		return SaveResult{}, fmt.Errorf("saving tab %s: %w", tabID, lockErr(err))
	}
	v, err := s.bumpNote(ctx, tx, noteID, noteV, now)
	if err != nil {
		return SaveResult{}, err
	}
	if err := tx.Commit(); err != nil {
		return SaveResult{}, fmt.Errorf("saving tab %s: %w", tabID, lockErr(err))
	}
	s.notify(noteID, v)
	return SaveResult{Saved: true, Version: v, TabVersion: nextTab}, nil
}

// AddTabAsPerson adds an empty tab of kind (text, sheet, slides) if the
// Note is still at expectedVersion.
func (s *Store) AddTabAsPerson(ctx context.Context, noteID string, expectedVersion int64, kind, title string) (SaveResult, TabInfo, error) {
	if err := checkTitle("tab title", title); err != nil {
		return SaveResult{}, TabInfo{}, err
	}
	data := ""
	switch kind {
	case KindText:
	case KindSheet:
		data = mustJSON(newSheetData())
	case KindSlides:
		data = mustJSON(SlidesData{Slides: []Slide{}})
	default:
		return SaveResult{}, TabInfo{}, fmt.Errorf("%w: kind must be text, sheet or slides", ErrInvalid)
	}
	return s.insertTabAsOwner(ctx, noteID, &expectedVersion, kind, title, data)
}

// AttachFile adds a File attachment tab (the person dropped a file on the
// Note). text is the file's extracted text, at most 1 MiB.
func (s *Store) AttachFile(ctx context.Context, noteID string, at Attachment) (TabInfo, error) {
	if err := checkTitle("file name", at.Name); err != nil {
		return TabInfo{}, err
	}
	if len(at.Text) > MaxTextBytes {
		return TabInfo{}, fmt.Errorf("%w: file text is larger than %d bytes", ErrInvalid, MaxTextBytes)
	}
	_, t, err := s.insertTabAsOwner(ctx, noteID, nil, KindFile, at.Name, mustJSON(at))
	return t, err
}

func (s *Store) insertTabAsOwner(ctx context.Context, noteID string, expected *int64, kind, title, data string) (SaveResult, TabInfo, error) {
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return SaveResult{}, TabInfo{}, fmt.Errorf("adding tab: %w", err)
	}
	defer tx.Rollback()
	var cur int64
	var maxPos int
	err = tx.QueryRowContext(ctx, `SELECT n.version, COALESCE(MAX(t.position), -1) FROM notes n
		LEFT JOIN note_tabs t ON t.note_id = n.id WHERE n.id = ? GROUP BY n.id`, noteID).Scan(&cur, &maxPos)
	if errors.Is(err, sql.ErrNoRows) {
		return SaveResult{}, TabInfo{}, fmt.Errorf("adding tab: note %s: %w", noteID, ErrNotFound)
	}
	if err != nil {
		return SaveResult{}, TabInfo{}, fmt.Errorf("adding tab: %w", lockErr(err))
	}
	if expected != nil && s.opts.Scope != ScopeNone && cur != *expected {
		return SaveResult{Version: cur}, TabInfo{}, nil
	}
	now := s.now()
	t := TabInfo{ID: newID("tab"), Kind: kind, Title: title, Position: maxPos + 1, Version: s.nextVersion(0), UpdatedAt: now}
	if _, err := tx.ExecContext(ctx, `INSERT INTO note_tabs (id, note_id, position, kind, title, data, version, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, t.ID, noteID, t.Position, kind, title, data, t.Version, formatTime(now), formatTime(now)); err != nil {
		return SaveResult{}, TabInfo{}, fmt.Errorf("adding tab: %w", lockErr(err))
	}
	v, err := s.bumpNote(ctx, tx, noteID, cur, formatTime(now))
	if err != nil {
		return SaveResult{}, TabInfo{}, err
	}
	if err := tx.Commit(); err != nil {
		return SaveResult{}, TabInfo{}, fmt.Errorf("adding tab: %w", lockErr(err))
	}
	s.notify(noteID, v)
	return SaveResult{Saved: true, Version: v, TabVersion: t.Version}, t, nil
}
