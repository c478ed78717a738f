package notes

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/osfoundry/desktop/backend/tools"
)

// Notes is the Notes themselves — their tabs (text, Sheet, Slides,
// attachments), the person's conditional saves and the note tools
// (list/read/edit/create_note_tab, read_sheet_range, add_note_source…).
// The Notes screen, `osfoundry notes` and the bridge all go through it.
type Notes struct{ *core }

// OnChange registers f to be called after every committed change to a Note
// (agent tool call or the person's save) with the Note's new version, so
// the app can push agent edits into an open editor. f runs on the writer's
// goroutine after commit: keep it short (emit an event). The returned
// function unsubscribes.
func (s *Notes) OnChange(f func(noteID string, version int64)) (unsubscribe func()) {
	return s.changes.Add(func(c noteChange) { f(c.id, c.version) })
}

// toolList is the note tools, in the order Store.Tools lists them.
func (s *Notes) toolList() []tools.Tool {
	return []tools.Tool{
		s.listNoteTabsTool(), s.readNoteTabTool(), s.readSheetRangeTool(), s.listNoteAttachmentsTool(),
		s.editNoteTabTool(), s.createNoteTabTool(), s.addNoteSourceTool(),
	}
}

// ListNotes returns a workspace's Notes, most recently changed first;
// project "" lists all of them.
func (s *Notes) ListNotes(ctx context.Context, workspace, project string) ([]NoteInfo, error) {
	return s.b.Pool().Notes().Notes(ctx, workspace, project)
}

// NoteInfo returns a Note's header.
func (s *Notes) NoteInfo(ctx context.Context, noteID string) (NoteInfo, error) {
	return s.b.Pool().Notes().Note(ctx, noteID)
}

// GetNote returns a Note with every tab's content, read in one transaction
// so the version matches the contents.
func (s *Notes) GetNote(ctx context.Context, noteID string) (Note, error) {
	var n Note
	err := s.b.Snapshot(ctx, func(tx Tx) error {
		info, err := tx.Notes().Note(ctx, noteID)
		if err != nil {
			return err
		}
		tabs, err := tx.Notes().TabContents(ctx, noteID)
		n = Note{NoteInfo: info, Tabs: tabs}
		return err
	})
	if err != nil {
		return Note{}, err
	}
	return n, nil
}

// setContent decodes a tab's stored data by kind. Text tabs store the text
// itself (no JSON) so the hot replace_text path encodes nothing.
func (t *Tab) setContent(data string) error {
	switch t.Kind {
	case KindText:
		t.Text = &data
	case KindSheet:
		t.Sheet = &SheetData{}
		return json.Unmarshal([]byte(data), t.Sheet)
	case KindSlides:
		t.Slides = &SlidesData{}
		return json.Unmarshal([]byte(data), t.Slides)
	default:
		t.Attachment = &Attachment{}
		return json.Unmarshal([]byte(data), t.Attachment)
	}
	return nil
}

// tabOf is a TabRow's tab with its content decoded.
func tabOf(tr TabRow) (Tab, error) {
	t := Tab{TabInfo: tr.Tab}
	if err := t.setContent(tr.Data); err != nil {
		return Tab{}, fmt.Errorf("decoding tab %s: %w", tr.Tab.ID, err)
	}
	return t, nil
}
