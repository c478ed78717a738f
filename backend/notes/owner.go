package notes

import (
	"context"
	"fmt"
	"strings"
)

// Owner-side helpers: used by the app, owner commands and tests. They act
// with the owner's authority, so they take no version; the person's editor
// uses the conditional Save… functions in editor.go instead.

func checkTitle(what, title string) error {
	if strings.TrimSpace(title) == "" {
		return fmt.Errorf("%w: %s must not be empty", ErrInvalid, what)
	}
	if len([]rune(title)) > MaxTitleChars {
		return fmt.Errorf("%w: %s is longer than %d characters", ErrInvalid, what, MaxTitleChars)
	}
	return nil
}

func orNewID(id, prefix string) string {
	if id != "" {
		return id
	}
	return newID(prefix)
}

// NewNote describes a Note to create. It starts with one text tab named
// "Note" holding Text, at version 1.
type NewNote struct {
	ID        string // "" picks a fresh id
	TabID     string // the first tab's id; "" picks a fresh one (a synced replica keeps its copy's)
	Workspace string
	Project   string // "" leaves the Note outside any project
	Title     string
	Text      string
}

// CreateNote creates a Note with its first text tab.
func (s *Notes) CreateNote(ctx context.Context, n NewNote) (Note, error) {
	if err := checkTitle("note title", n.Title); err != nil {
		return Note{}, err
	}
	if len(n.Text) > MaxTextBytes {
		return Note{}, fmt.Errorf("%w: text is larger than %d bytes", ErrInvalid, MaxTextBytes)
	}
	if err := s.checkPlacement(ctx, s.b.Pool().Places(), n.Workspace, n.Project); err != nil {
		return Note{}, fmt.Errorf("creating note %q: %w", n.Title, err)
	}
	info := NoteInfo{ID: orNewID(n.ID, "note"), Workspace: n.Workspace, Project: n.Project, Title: n.Title, Version: s.nextVersion(0)}
	tab := TabInfo{ID: orNewID(n.TabID, "tab"), Kind: KindText, Title: "Note", Position: 0, Version: s.nextVersion(0)}
	now := s.now()
	err := s.b.Write(ctx, func(tx Tx) error {
		if err := tx.Notes().InsertNote(ctx, info, now); err != nil {
			return err
		}
		return tx.Notes().InsertTab(ctx, info.ID, tab, n.Text, now)
	})
	if err != nil {
		return Note{}, fmt.Errorf("creating note %q: %w", n.Title, lockErr(err))
	}
	return s.GetNote(ctx, info.ID)
}

// MoveNote puts a Note in another project of its workspace. Access checks
// read the project on every call, so the move takes effect on the next call.
func (s *Notes) MoveNote(ctx context.Context, noteID, projectID string) error {
	if err := s.move(ctx, ResourceNote, noteID, projectID); err != nil {
		return err
	}
	// A move is not a content change, but an open editor may show the project.
	if n, err := s.b.Pool().Notes().Note(ctx, noteID); err == nil {
		s.notify(noteID, n.Version)
	}
	return nil
}
