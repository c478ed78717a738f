package notes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// The person's editor saves conditionally too: a stale editor tab must not
// overwrite an agent any more than an agent may overwrite the person. On a
// conflict nothing is written and the editor gets the tab as it is now,
// keeps the person's text as a local draft and offers compare / re-apply.

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
func (s *Notes) SaveTabAsPerson(ctx context.Context, noteID, tabID string, expectedVersion int64, content string) (SaveResult, error) {
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
func (s *Notes) SaveCellsAsPerson(ctx context.Context, noteID, tabID string, expectedVersion int64, sheetID string, row, col int, values [][]any) (SaveResult, error) {
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
func (s *Notes) personWrite(ctx context.Context, noteID, tabID string, expected int64, build func(kind, data string) (string, error)) (SaveResult, error) {
	var out SaveResult
	err := s.b.Write(ctx, func(tx Tx) error {
		tr, err := tx.Notes().TabRow(ctx, tabID, true)
		if errors.Is(err, ErrNotFound) || (err == nil && tr.NoteID != noteID) {
			return fmt.Errorf("saving: tab %s of note %s: %w", tabID, noteID, ErrNotFound)
		}
		if err != nil {
			return err
		}
		current := tr.NoteVersion
		if s.opts.Scope == ScopeTab {
			current = tr.Tab.Version
		}
		if s.opts.Scope != ScopeNone && current != expected {
			t := Tab{TabInfo: TabInfo{ID: tabID, Kind: tr.Tab.Kind, Version: tr.Tab.Version}}
			if err := t.setContent(tr.Data); err != nil {
				return fmt.Errorf("decoding tab %s: %w", tabID, err)
			}
			out = SaveResult{Version: tr.NoteVersion, TabVersion: tr.Tab.Version, Current: &t}
			return nil
		}
		newData, err := build(tr.Tab.Kind, tr.Data)
		if err != nil {
			return errKeep{err}
		}
		now := s.now()
		nextTab := s.nextVersion(tr.Tab.Version)
		if err := tx.Notes().UpdateTab(ctx, tabID, newData, nextTab, now); err != nil {
			return err
		}
		v, err := s.bumpNote(ctx, tx, noteID, tr.NoteVersion, now)
		if err != nil {
			return errKeep{err}
		}
		out = SaveResult{Saved: true, Version: v, TabVersion: nextTab}
		return nil
	})
	if err != nil {
		return SaveResult{}, keepOr(err, "saving tab %s: %w", tabID)
	}
	if out.Saved {
		s.notify(noteID, out.Version)
	}
	return out, nil
}

// errKeep carries an error a Write callback returns to its caller as it
// is, without the caller's context (a refusal the person reads verbatim).
type errKeep struct{ err error }

func (e errKeep) Error() string { return e.err.Error() }
func (e errKeep) Unwrap() error { return e.err }

// keepOr returns the error inside an errKeep, an ErrNotFound as it is,
// and otherwise wraps err with format (which ends in %w).
func keepOr(err error, format string, args ...any) error {
	var k errKeep
	if errors.As(err, &k) {
		return k.err
	}
	if errors.Is(err, ErrNotFound) {
		return err
	}
	return fmt.Errorf(format, append(args, lockErr(err))...)
}

// AddTabAsPerson adds an empty tab of kind (text, sheet, slides) if the
// Note is still at expectedVersion.
func (s *Notes) AddTabAsPerson(ctx context.Context, noteID string, expectedVersion int64, kind, title string) (SaveResult, TabInfo, error) {
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
func (s *Notes) AttachFile(ctx context.Context, noteID string, at Attachment) (TabInfo, error) {
	if err := checkTitle("file name", at.Name); err != nil {
		return TabInfo{}, err
	}
	if len(at.Text) > MaxTextBytes {
		return TabInfo{}, fmt.Errorf("%w: file text is larger than %d bytes", ErrInvalid, MaxTextBytes)
	}
	_, t, err := s.insertTabAsOwner(ctx, noteID, nil, KindFile, at.Name, mustJSON(at))
	return t, err
}

func (s *Notes) insertTabAsOwner(ctx context.Context, noteID string, expected *int64, kind, title, data string) (SaveResult, TabInfo, error) {
	var out SaveResult
	var t TabInfo
	err := s.b.Write(ctx, func(tx Tx) error {
		n, err := tx.Notes().Note(ctx, noteID)
		if errors.Is(err, ErrNotFound) {
			return fmt.Errorf("adding tab: note %s: %w", noteID, ErrNotFound)
		}
		if err != nil {
			return err
		}
		_, last, err := tx.Notes().TabStats(ctx, noteID)
		if err != nil {
			return err
		}
		if expected != nil && s.opts.Scope != ScopeNone && n.Version != *expected {
			out = SaveResult{Version: n.Version}
			return nil
		}
		now := s.now()
		t = TabInfo{ID: newID("tab"), Kind: kind, Title: title, Position: last + 1, Version: s.nextVersion(0), UpdatedAt: now}
		if err := tx.Notes().InsertTab(ctx, noteID, t, data, now); err != nil {
			return err
		}
		v, err := s.bumpNote(ctx, tx, noteID, n.Version, now)
		if err != nil {
			return errKeep{err}
		}
		out = SaveResult{Saved: true, Version: v, TabVersion: t.Version}
		return nil
	})
	if err != nil {
		return SaveResult{}, TabInfo{}, keepOr(err, "adding tab: %w")
	}
	if !out.Saved {
		return out, TabInfo{}, nil
	}
	s.notify(noteID, out.Version)
	return out, t, nil
}
