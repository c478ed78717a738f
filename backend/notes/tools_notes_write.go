package notes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/osfoundry/desktop/backend/tools"
)

// Edit operations of edit_note_tab.
const (
	OpReplaceText      = "replace_text"
	OpReplaceTabData   = "replace_tab_data"
	OpSlideAdd         = "slide_add"
	OpSlidesAddOutline = "slides_add_outline"
	OpSheetSetRange    = "sheet_set_range"
)

var operations = []string{OpReplaceText, OpReplaceTabData, OpSlideAdd, OpSlidesAddOutline, OpSheetSetRange}

// editArgs are edit_note_tab's arguments. Expected and Key are cleared
// before hashing (see intentHash).
type editArgs struct {
	NoteID    string  `json:"note_id"`
	TabID     string  `json:"tab_id"`
	Expected  Version `json:"expected_version,omitempty"`
	Key       string  `json:"idempotency_key,omitempty"`
	Operation string  `json:"operation"`
	Text      *string `json:"text,omitempty"`
	Data      rawJSON `json:"data,omitempty"`
	Title     string  `json:"title,omitempty"`
	Body      string  `json:"body,omitempty"`
	Position  *int    `json:"position,omitempty"`
	Outline   []Slide `json:"outline,omitempty"`
	SheetID   string  `json:"sheet_id,omitempty"`
	StartRow  int     `json:"start_row,omitempty"`
	StartCol  int     `json:"start_col,omitempty"`
	Values    [][]any `json:"values,omitempty"`
}

func (a editArgs) intent() any { a.Expected, a.Key = 0, ""; return a }

// kindsFor says which tab kinds an operation may edit.
var kindsFor = map[string][]string{
	OpReplaceText:      {KindText},
	OpReplaceTabData:   {KindSheet, KindSlides},
	OpSlideAdd:         {KindSlides},
	OpSlidesAddOutline: {KindSlides},
	OpSheetSetRange:    {KindSheet},
}

func (s *Notes) editNoteTabTool() tools.Tool {
	sp := spec{noteIDField, tabIDField, versionField, keyField,
		{name: "operation", required: true, schema: map[string]any{"type": "string", "enum": operations,
			"description": "replace_text (Note/Markdown tab: text), replace_tab_data (Sheet or Slides tab: data), slide_add (title, body, position), slides_add_outline (outline), sheet_set_range (sheet_id, start_row, start_col, values)."}},
		{name: "text", schema: map[string]any{"type": "string", "description": "replace_text: the tab's complete new text (Markdown), at most 1 MiB."}},
		{name: "data", schema: map[string]any{"type": "object", "description": `replace_tab_data: the whole tab, {"sheets": [{"name", "cells": [[...]]}]} for a Sheet or {"slides": [{"title", "body"}]} for Slides.`}},
		optString("title", "slide_add: the slide's title.", 500),
		{name: "body", schema: map[string]any{"type": "string", "description": "slide_add: the slide's Markdown body."}},
		{name: "position", schema: map[string]any{"type": "integer", "minimum": 0, "description": "slide_add / slides_add_outline: 0-based index to insert at; default the end."}},
		{name: "outline", schema: map[string]any{"type": "array", "description": "slides_add_outline: slides to append, each {title, body}.",
			"items": map[string]any{"type": "object", "properties": map[string]any{"title": map[string]any{"type": "string"}, "body": map[string]any{"type": "string"}}, "required": []string{"title"}}}},
		optString("sheet_id", "sheet_set_range: sheet within the tab; default the first.", 200),
		optInt("start_row", "sheet_set_range: 0-based first row; default 0.", 0),
		optInt("start_col", "sheet_set_range: 0-based first column; default 0.", 0),
		{name: "values", schema: map[string]any{"type": "array", "description": "sheet_set_range: rows of cell values (string, number, boolean or null), at most 100×100.",
			"items": map[string]any{"type": "array"}}},
	}
	desc := "Use an exact tab ID and version from read_note_tab. Use replace_text for Note/Markdown, slide_add or slides_add_outline for Slides, " +
		"sheet_set_range for Sheet, or replace_tab_data for supported content tabs. File and Source attachments cannot be edited through this tool. " +
		"A repeated idempotency key returns the first result. Limits: text 1 MiB, ranges 100×100."
	return tools.Tool{Meta: writeMeta(ToolEditNoteTab, desc, sp), Handler: handler(sp, s.editNoteTab)}
}

// tabState is what a Note write reads inside its transaction.
type tabState struct {
	noteVersion, tabVersion int64
	kind, data              string
}

// loadTab reads the Note and tab versions (and data when withData) inside
// tx, refusing a tab of another Note or a Note of another workspace.
func (s *Notes) loadTab(ctx context.Context, tx Tx, ws, noteID, tabID string, withData bool) (tabState, *tools.Result, error) {
	tr, err := tx.Notes().TabRow(ctx, tabID, withData)
	if err == nil && tr.Workspace == ws && tr.NoteID == noteID {
		return tabState{noteVersion: tr.NoteVersion, tabVersion: tr.Tab.Version, kind: tr.Tab.Kind, data: tr.Data}, nil, nil
	}
	if err != nil && !errors.Is(err, ErrNotFound) {
		return tabState{}, nil, err
	}
	n, err := tx.Notes().Note(ctx, noteID)
	if errors.Is(err, ErrNotFound) || (err == nil && n.Workspace != ws) {
		return tabState{}, notFound(fmt.Sprintf("note %s not found; use list_project_resources to find Note IDs", noteID)), nil
	}
	if err != nil {
		return tabState{}, nil, err
	}
	return tabState{}, notFound(fmt.Sprintf("tab %s is not a tab of note %s; call list_note_tabs for this Note's exact tab IDs", tabID, noteID)), nil
}

func (s *Notes) noteConflict(noteID, tabID string, expected int64) func(int64) tools.Result {
	return func(current int64) tools.Result {
		what := "Note"
		if s.opts.Scope == ScopeTab && tabID != "" {
			what = "tab"
		}
		r := tools.JSONResult(map[string]any{
			"error": "version_conflict", "note_id": noteID, "tab_id": tabID,
			"expected_version": expected, "current_version": current,
			"message": fmt.Sprintf("Not saved: the %s changed since you read it (you sent version %d, it is now %d). "+
				"Re-read the tab with read_note_tab, re-apply your intended change to the current content, and write again "+
				"with expected_version %d and a NEW idempotency_key. Do not resend your old content with only the version changed.",
				what, expected, current, current),
		})
		r.IsError = true
		return r
	}
}

func (s *Notes) editNoteTab(ctx context.Context, c tools.Call, a *editArgs) (tools.Result, error) {
	if err := a.precheck(); err != nil {
		return tools.ErrorResult(err.Error()), nil
	}
	var st tabState
	withData := a.Operation != OpReplaceText
	return s.guarded(ctx, writeOp{
		tool: ToolEditNoteTab, workspace: c.Workspace, key: a.Key, intent: a.intent(), expected: int64(a.Expected),
		what:     "editing note tab",
		conflict: s.noteConflict(a.NoteID, a.TabID, int64(a.Expected)),
		check: func(tx Tx) (int64, *tools.Result, error) {
			var refusal *tools.Result
			var err error
			st, refusal, err = s.loadTab(ctx, tx, c.Workspace, a.NoteID, a.TabID, withData)
			if refusal != nil || err != nil {
				return 0, refusal, err
			}
			if !contains(kindsFor[a.Operation], st.kind) {
				if st.kind == KindFile || st.kind == KindSource {
					return 0, notFound("File and Source attachments cannot be edited through this tool"), nil
				}
				return 0, notFound(fmt.Sprintf("operation %s cannot edit a %s tab; use %s", a.Operation, st.kind, opsFor(st.kind))), nil
			}
			if s.opts.Scope == ScopeTab {
				return st.tabVersion, nil, nil
			}
			return st.noteVersion, nil, nil
		},
		apply: func(tx Tx) (map[string]any, string, int64, error) {
			data, err := a.apply(st)
			if err != nil {
				return nil, "", 0, err
			}
			now := s.now()
			tabV := s.nextVersion(st.tabVersion)
			if err := tx.Notes().UpdateTab(ctx, a.TabID, data, tabV, now); err != nil {
				return nil, "", 0, fmt.Errorf("updating tab: %w", err)
			}
			v, err := s.bumpNote(ctx, tx, a.NoteID, st.noteVersion, now)
			if err != nil {
				return nil, "", 0, err
			}
			return map[string]any{"status": "saved", "note_id": a.NoteID, "tab_id": a.TabID, "operation": a.Operation,
				"version": v, "tab_version": tabV}, a.NoteID, v, nil
		},
	})
}

func opsFor(kind string) string {
	var ops []string
	for _, op := range operations {
		if contains(kindsFor[op], kind) {
			ops = append(ops, op)
		}
	}
	if len(ops) == 0 {
		return "no operation (attachments are read-only)"
	}
	return strings.Join(ops, " or ")
}

// precheck validates the operation's own arguments before any database work.
func (a *editArgs) precheck() error {
	need := func(ok bool, name string) error {
		if !ok {
			return argErr("missing argument %s for operation %s", name, a.Operation)
		}
		return nil
	}
	switch a.Operation {
	case OpReplaceText:
		if err := need(a.Text != nil, "text"); err != nil {
			return err
		}
		if len(*a.Text) > MaxTextBytes {
			return argErr("text is %d bytes; a tab holds at most %d bytes (1 MiB). Split the content over several tabs", len(*a.Text), MaxTextBytes)
		}
	case OpReplaceTabData:
		if err := need(len(a.Data) > 0, "data"); err != nil {
			return err
		}
		if len(a.Data) > MaxTabDataBytes {
			return argErr("data is %d bytes; at most %d", len(a.Data), MaxTabDataBytes)
		}
	case OpSlideAdd:
		return need(a.Title != "" || a.Body != "", "title or body")
	case OpSlidesAddOutline:
		return need(len(a.Outline) > 0, "outline")
	case OpSheetSetRange:
		if err := need(a.Values != nil, "values"); err != nil {
			return err
		}
		return checkCells(a.Values, MaxRangeRows, MaxRangeCols)
	}
	return nil
}

// apply computes the tab's new stored data.
func (a *editArgs) apply(st tabState) (string, error) {
	pos := -1
	if a.Position != nil {
		pos = *a.Position
	}
	switch a.Operation {
	case OpReplaceText:
		return *a.Text, nil
	case OpSlideAdd, OpSlidesAddOutline:
		var d SlidesData
		if err := json.Unmarshal([]byte(st.data), &d); err != nil {
			return "", fmt.Errorf("decoding slides: %w", err)
		}
		add := a.Outline
		if a.Operation == OpSlideAdd {
			add = []Slide{{Title: a.Title, Body: a.Body}}
		}
		if err := d.insert(pos, add...); err != nil {
			return "", err
		}
		return marshalString(d)
	case OpSheetSetRange:
		var d SheetData
		if err := json.Unmarshal([]byte(st.data), &d); err != nil {
			return "", fmt.Errorf("decoding sheet: %w", err)
		}
		sh, err := d.find(a.SheetID)
		if err != nil {
			return "", argErr("%v", err)
		}
		if err := sh.set(a.StartRow, a.StartCol, a.Values); err != nil {
			return "", err
		}
		return marshalString(d)
	case OpReplaceTabData:
		if st.kind == KindSheet {
			var d SheetData
			if err := strictJSON(a.Data, &d); err != nil {
				return "", argErr(`invalid data for a Sheet tab: %v; send {"sheets": [{"name": "Sheet1", "cells": [["a", 1]]}]}`, err)
			}
			if err := d.validate(); err != nil {
				return "", err
			}
			return marshalString(d)
		}
		var d SlidesData
		if err := strictJSON(a.Data, &d); err != nil {
			return "", argErr(`invalid data for a Slides tab: %v; send {"slides": [{"title": "…", "body": "…"}]}`, err)
		}
		if err := d.validate(); err != nil {
			return "", err
		}
		return marshalString(d)
	}
	return "", argErr("unknown operation %q", a.Operation)
}

func marshalString(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("encoding tab data: %w", err)
	}
	if len(b) > MaxTabDataBytes {
		return "", argErr("the tab would be %d bytes; a tab holds at most %d", len(b), MaxTabDataBytes)
	}
	return string(b), nil
}

func strictJSON(raw []byte, v any) error {
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

func checkURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return argErr("url must be an http(s) address, got %q", raw)
	}
	return nil
}
