package notes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/osfoundry/desktop/backend/tools"
)

type createTabArgs struct {
	NoteID   string  `json:"note_id"`
	Expected Version `json:"expected_version,omitempty"`
	Key      string  `json:"idempotency_key,omitempty"`
	Kind     string  `json:"kind"`
	Title    string  `json:"title"`
	Text     string  `json:"text,omitempty"`
}

func (a createTabArgs) intent() any { a.Expected, a.Key = 0, ""; return a }

type sourceArgs struct {
	NoteID   string  `json:"note_id"`
	Expected Version `json:"expected_version,omitempty"`
	Key      string  `json:"idempotency_key,omitempty"`
	Title    string  `json:"title"`
	URL      string  `json:"url,omitempty"`
	Content  string  `json:"content,omitempty"`
}

func (a sourceArgs) intent() any { a.Expected, a.Key = 0, ""; return a }

func (s *Notes) createNoteTabTool() tools.Tool {
	sp := spec{noteIDField, versionField, keyField,
		{name: "kind", required: true, schema: map[string]any{"type": "string", "enum": []string{KindText, KindSheet, KindSlides},
			"description": "text (Note/Markdown), sheet or slides."}},
		{name: "title", required: true, schema: map[string]any{"type": "string", "maxLength": MaxTitleChars, "description": "The new tab's title."}},
		{name: "text", schema: map[string]any{"type": "string", "description": "For a text tab: its initial Markdown, at most 1 MiB."}},
	}
	desc := "Add a tab to a Note. Use the version from list_note_tabs. A repeated idempotency key returns the first tab " +
		"(with its tab ID), so a retried call never creates a duplicate."
	return tools.Tool{Meta: writeMeta(ToolCreateNoteTab, desc, sp), Handler: handler(sp, s.createNoteTab)}
}

func (s *Notes) createNoteTab(ctx context.Context, c tools.Call, a *createTabArgs) (tools.Result, error) {
	if len(a.Text) > MaxTextBytes {
		return tools.ErrorResult(fmt.Sprintf("text is %d bytes; a tab holds at most %d bytes (1 MiB)", len(a.Text), MaxTextBytes)), nil
	}
	if a.Text != "" && a.Kind != KindText {
		return tools.ErrorResult("text is only for kind text; create the tab, then fill it with edit_note_tab"), nil
	}
	data := a.Text
	switch a.Kind {
	case KindSheet:
		data = mustJSON(newSheetData())
	case KindSlides:
		data = mustJSON(SlidesData{Slides: []Slide{}})
	}
	return s.addTab(ctx, c.Workspace, ToolCreateNoteTab, a.Key, a.intent(), a.NoteID, int64(a.Expected), a.Kind, a.Title, data)
}

func (s *Notes) addNoteSourceTool() tools.Tool {
	sp := spec{noteIDField, versionField, keyField,
		{name: "title", required: true, schema: map[string]any{"type": "string", "maxLength": MaxTitleChars, "description": "The source's name."}},
		optString("url", "Where the source lives (http or https).", 2048),
		{name: "content", schema: map[string]any{"type": "string", "description": "The source's text (Markdown), at most 1 MiB. Give url, content or both."}},
	}
	desc := "Attach a Source (a web page, document excerpt or reference) to a Note as a read-only Source tab. Use the version from " +
		"list_note_tabs. A repeated idempotency key returns the first result, so a retried call never attaches twice."
	return tools.Tool{Meta: writeMeta(ToolAddNoteSource, desc, sp), Handler: handler(sp, s.addNoteSource)}
}

func (s *Notes) addNoteSource(ctx context.Context, c tools.Call, a *sourceArgs) (tools.Result, error) {
	if a.URL == "" && a.Content == "" {
		return tools.ErrorResult("give url, content or both"), nil
	}
	if a.URL != "" {
		if err := checkURL(a.URL); err != nil {
			return tools.ErrorResult(err.Error()), nil
		}
	}
	if len(a.Content) > MaxTextBytes {
		return tools.ErrorResult(fmt.Sprintf("content is %d bytes; at most %d bytes (1 MiB)", len(a.Content), MaxTextBytes)), nil
	}
	at := Attachment{Name: a.Title, URL: a.URL, MimeType: "text/markdown", Size: int64(len(a.Content)), Text: a.Content}
	return s.addTab(ctx, c.Workspace, ToolAddNoteSource, a.Key, a.intent(), a.NoteID, int64(a.Expected), KindSource, a.Title, mustJSON(at))
}

// addTab is the guarded create shared by create_note_tab and
// add_note_source. Creating replaces nothing, so the version check alone
// cannot stop a retried create from adding a second tab: the idempotency
// key does (without a key, a retried create added a second tab).
func (s *Notes) addTab(ctx context.Context, ws, tool, key string, intent any, noteID string, expected int64, kind, title, data string) (tools.Result, error) {
	var cur int64
	var count, maxPos int
	return s.guarded(ctx, writeOp{
		tool: tool, workspace: ws, key: key, intent: intent, expected: expected, what: "adding a tab",
		conflict: s.noteConflict(noteID, "", expected),
		check: func(tx Tx) (int64, *tools.Result, error) {
			n, err := tx.Notes().Note(ctx, noteID)
			if errors.Is(err, ErrNotFound) || (err == nil && n.Workspace != ws) {
				return 0, notFound(fmt.Sprintf("note %s not found; use list_project_resources to find Note IDs", noteID)), nil
			}
			if err != nil {
				return 0, nil, err
			}
			cur = n.Version
			if count, maxPos, err = tx.Notes().TabStats(ctx, noteID); err != nil {
				return 0, nil, err
			}
			if count >= MaxTabsPerNote {
				return 0, notFound(fmt.Sprintf("note %s already has %d tabs, the most a Note can hold", noteID, MaxTabsPerNote)), nil
			}
			return cur, nil, nil
		},
		apply: func(tx Tx) (map[string]any, string, int64, error) {
			now := s.now()
			tabID := newID("tab")
			tabV := s.nextVersion(0)
			t := TabInfo{ID: tabID, Kind: kind, Title: title, Position: maxPos + 1, Version: tabV}
			if err := tx.Notes().InsertTab(ctx, noteID, t, data, now); err != nil {
				return nil, "", 0, fmt.Errorf("inserting tab: %w", err)
			}
			v, err := s.bumpNote(ctx, tx, noteID, cur, now)
			if err != nil {
				return nil, "", 0, err
			}
			return map[string]any{"status": "created", "note_id": noteID, "tab_id": tabID, "kind": kind, "title": title,
				"version": v, "tab_version": tabV}, noteID, v, nil
		},
	})
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic("encoding tab data: " + err.Error())
	}
	return string(b)
}
