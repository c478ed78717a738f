package notes

import (
	"context"
	"errors"
	"fmt"

	"github.com/osfoundry/desktop/backend/tools"
)

var (
	noteIDField = idField("note_id", "The Note's ID from list_project_resources or list_note_tabs.")
	tabIDField  = idField("tab_id", "The exact tab ID from list_note_tabs.")
)

// noteFor reads a Note's header and refuses one outside the call's
// workspace as "not found" (never revealing that it exists elsewhere).
func (s *Notes) noteFor(ctx context.Context, c tools.Call, noteID string) (NoteInfo, *tools.Result, error) {
	n, err := s.NoteInfo(ctx, noteID)
	if errors.Is(err, ErrNotFound) || (err == nil && n.Workspace != c.Workspace) {
		return NoteInfo{}, notFound(fmt.Sprintf("note %s not found; use list_project_resources to find Note IDs", noteID)), nil
	}
	if err != nil {
		return NoteInfo{}, nil, err
	}
	return n, nil, nil
}

type noteArgs struct {
	NoteID string `json:"note_id"`
}

func (s *Notes) listNoteTabsTool() tools.Tool {
	sp := spec{noteIDField}
	return tools.Tool{
		Meta: readMeta(ToolListNoteTabs, "List a Note's tabs (ID, kind, title) and the Note's current version. "+
			"Use this version as expected_version for create_note_tab and add_note_source.", sp),
		Handler: handler(sp, func(ctx context.Context, c tools.Call, a *noteArgs) (tools.Result, error) {
			// Header and tabs come from one read transaction so the version
			// matches the list.
			var n NoteInfo
			var tabs []TabInfo
			err := s.b.Snapshot(ctx, func(tx Tx) error {
				var err error
				if n, err = tx.Notes().Note(ctx, a.NoteID); err != nil {
					return err
				}
				tabs, err = tx.Notes().Tabs(ctx, a.NoteID)
				return err
			})
			if errors.Is(err, ErrNotFound) || (err == nil && n.Workspace != c.Workspace) {
				return *notFound(fmt.Sprintf("note %s not found; use list_project_resources to find Note IDs", a.NoteID)), nil
			}
			if err != nil {
				return tools.Result{}, fmt.Errorf("listing tabs: %w", err)
			}
			return tools.JSONResult(map[string]any{
				"note_id": n.ID, "title": n.Title, "version": n.Version, "updated_at": n.UpdatedAt, "tabs": tabs,
			}), nil
		}),
	}
}

func deref(r *tools.Result) tools.Result {
	if r == nil {
		return tools.Result{}
	}
	return *r
}

type tabArgs struct {
	NoteID string `json:"note_id"`
	TabID  string `json:"tab_id"`
}

// readTab reads one tab and the Note version in one read transaction, so
// the version a model writes back matches the content it saw.
func (s *Notes) readTab(ctx context.Context, c tools.Call, noteID, tabID string) (Tab, int64, *tools.Result, error) {
	// One row carries the tab and its Note's version.
	tr, err := s.b.Pool().Notes().TabRow(ctx, tabID, true)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return Tab{}, 0, nil, fmt.Errorf("reading tab: %w", err)
	}
	if err != nil || tr.Workspace != c.Workspace || tr.NoteID != noteID {
		_, refusal, err := s.noteFor(ctx, c, noteID)
		if refusal != nil || err != nil {
			return Tab{}, 0, refusal, err
		}
		return Tab{}, 0, notFound(fmt.Sprintf("tab %s is not a tab of note %s; call list_note_tabs for this Note's exact tab IDs", tabID, noteID)), nil
	}
	t, err := tabOf(tr)
	if err != nil {
		return Tab{}, 0, nil, err
	}
	return t, tr.NoteVersion, nil, nil
}

func (s *Notes) readNoteTabTool() tools.Tool {
	sp := spec{noteIDField, tabIDField}
	return tools.Tool{
		Meta: readMeta(ToolReadNoteTab, "Read one tab of a Note with the Note's current version. Text tabs return the full Markdown text; "+
			"Slides return every slide; Sheets return their size (use read_sheet_range for cells, at most 100×100 per call); "+
			"File and Source attachments return their text.", sp),
		Handler: handler(sp, func(ctx context.Context, c tools.Call, a *tabArgs) (tools.Result, error) {
			t, version, refusal, err := s.readTab(ctx, c, a.NoteID, a.TabID)
			if refusal != nil || err != nil {
				return deref(refusal), err
			}
			out := map[string]any{"note_id": a.NoteID, "tab_id": t.ID, "kind": t.Kind, "title": t.Title,
				"version": version, "tab_version": t.Version, "updated_at": t.UpdatedAt}
			switch {
			case t.Text != nil:
				out["text"] = *t.Text
			case t.Slides != nil:
				out["slides"] = t.Slides.Slides
			case t.Sheet != nil:
				out["sheets"] = sheetSizes(t.Sheet)
			case t.Attachment != nil:
				out["attachment"] = t.Attachment
			}
			return tools.JSONResult(out), nil
		}),
	}
}

type rangeArgs struct {
	NoteID   string `json:"note_id"`
	TabID    string `json:"tab_id"`
	SheetID  string `json:"sheet_id"`
	StartRow int    `json:"start_row"`
	StartCol int    `json:"start_col"`
	RowCount int    `json:"row_count"`
	ColCount int    `json:"col_count"`
}

func (s *Notes) readSheetRangeTool() tools.Tool {
	sp := spec{noteIDField, tabIDField,
		optString("sheet_id", "Sheet within the tab (from read_note_tab); default the first.", 200),
		optInt("start_row", "0-based first row; default 0.", 0),
		optInt("start_col", "0-based first column; default 0.", 0),
		{name: "row_count", required: true, schema: map[string]any{"type": "integer", "minimum": 1, "maximum": MaxRangeRows, "description": "Rows to read, 1–100."}},
		{name: "col_count", required: true, schema: map[string]any{"type": "integer", "minimum": 1, "maximum": MaxRangeCols, "description": "Columns to read, 1–100."}},
	}
	return tools.Tool{
		Meta: readMeta(ToolReadSheetRange, "Read a rectangle of cells from a Sheet tab, at most 100 rows × 100 columns per call, "+
			"with the Note's current version. Cells past the end of the sheet come back as null.", sp),
		Handler: handler(sp, func(ctx context.Context, c tools.Call, a *rangeArgs) (tools.Result, error) {
			if a.RowCount > MaxRangeRows || a.ColCount > MaxRangeCols {
				return tools.ErrorResult(fmt.Sprintf("range %d×%d is too large: row_count and col_count may be at most %d×%d; read it in several calls",
					a.RowCount, a.ColCount, MaxRangeRows, MaxRangeCols)), nil
			}
			t, version, refusal, err := s.readTab(ctx, c, a.NoteID, a.TabID)
			if refusal != nil || err != nil {
				return deref(refusal), err
			}
			if t.Sheet == nil {
				return tools.ErrorResult(fmt.Sprintf("tab %s is a %s tab, not a Sheet", t.ID, t.Kind)), nil
			}
			sh, err := t.Sheet.find(a.SheetID)
			if err != nil {
				return tools.ErrorResult(err.Error()), nil
			}
			return tools.JSONResult(map[string]any{"note_id": a.NoteID, "tab_id": t.ID, "sheet_id": sh.ID,
				"version": version, "tab_version": t.Version, "start_row": a.StartRow, "start_col": a.StartCol,
				"rows": sh.rows(), "cols": sh.cols(),
				"values": sh.read(a.StartRow, a.StartCol, a.RowCount, a.ColCount)}), nil
		}),
	}
}

func (s *Notes) listNoteAttachmentsTool() tools.Tool {
	sp := spec{noteIDField}
	return tools.Tool{
		Meta: readMeta(ToolListNoteAttachments, "List a Note's File and Source attachments (tab ID, name, URL, type, size). "+
			"Read one with read_note_tab.", sp),
		Handler: handler(sp, func(ctx context.Context, c tools.Call, a *noteArgs) (tools.Result, error) {
			_, refusal, err := s.noteFor(ctx, c, a.NoteID)
			if refusal != nil || err != nil {
				return deref(refusal), err
			}
			note, err := s.GetNote(ctx, a.NoteID)
			if err != nil {
				return tools.Result{}, err
			}
			type item struct {
				TabID string `json:"tab_id"`
				Kind  string `json:"kind"`
				Attachment
			}
			out := []item{}
			for _, t := range note.Tabs {
				if t.Attachment != nil {
					at := *t.Attachment
					at.Text = "" // listing stays small; read_note_tab returns the text
					out = append(out, item{TabID: t.ID, Kind: t.Kind, Attachment: at})
				}
			}
			return tools.JSONResult(map[string]any{"note_id": a.NoteID, "version": note.Version, "attachments": out}), nil
		}),
	}
}
