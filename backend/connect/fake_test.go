package connect

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"sync"

	"github.com/osfoundry/desktop/backend/tools"
)

// fakeNotes is an in-memory Resources: Notes with a workspace and a
// project, one read tool and one write tool. It stands in for the notes
// store in unit tests; notesres tests use the real one.
type fakeNotes struct {
	mu    sync.Mutex
	notes map[string]*fakeNote
	ws    []Workspace
}

type fakeNote struct {
	workspace, project, title, text string
}

func newFakeNotes() *fakeNotes {
	return &fakeNotes{notes: map[string]*fakeNote{}, ws: []Workspace{{ID: "ws-acme", Name: "Acme"}, {ID: "ws-other", Name: "Other"}}}
}

func (f *fakeNotes) put(id, ws, project, title string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.notes[id] = &fakeNote{workspace: ws, project: project, title: title, text: title}
}

func (f *fakeNotes) move(id, project string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.notes[id].project = project
}

func (f *fakeNotes) Workspaces(context.Context) ([]Workspace, error) { return f.ws, nil }

type noteArgs struct {
	NoteID string `json:"note_id"`
	Text   string `json:"text"`
}

func (f *fakeNotes) Tools() []tools.Tool {
	return []tools.Tool{
		{Meta: tools.Meta{Name: "read_note", Scope: tools.ScopeRead, ReadOnly: true, Description: "Read a Note.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"note_id":{"type":"string"}},"required":["note_id"]}`)},
			Handler: func(_ context.Context, c tools.Call) (tools.Result, error) {
				var a noteArgs
				json.Unmarshal(c.Args, &a)
				f.mu.Lock()
				defer f.mu.Unlock()
				n := f.notes[a.NoteID]
				if n == nil || n.workspace != c.Workspace {
					return tools.ErrorResult("not_found"), nil
				}
				return tools.JSONResult(map[string]string{"note_id": a.NoteID, "text": n.text}), nil
			}},
		{Meta: tools.Meta{Name: "edit_note", Scope: tools.ScopeWrite, Destructive: true, Description: "Replace a Note's text.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"note_id":{"type":"string"},"text":{"type":"string"}},"required":["note_id","text"]}`)},
			Handler: func(_ context.Context, c tools.Call) (tools.Result, error) {
				var a noteArgs
				json.Unmarshal(c.Args, &a)
				f.mu.Lock()
				defer f.mu.Unlock()
				n := f.notes[a.NoteID]
				if n == nil || n.workspace != c.Workspace {
					return tools.ErrorResult("not_found"), nil
				}
				n.text = a.Text
				return tools.Result{Text: "saved"}, nil
			}},
	}
}

func (f *fakeNotes) CallTarget(_ context.Context, tool string, args json.RawMessage) (Target, error) {
	var a noteArgs
	if err := json.Unmarshal(args, &a); err != nil {
		return Target{}, fmt.Errorf("reading arguments: %w", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	n := f.notes[a.NoteID]
	if n == nil {
		return Target{Kind: "note", ID: a.NoteID}, nil
	}
	return Target{Kind: "note", ID: a.NoteID, Workspace: n.workspace, Project: n.project}, nil
}

func (f *fakeNotes) ProjectResources(_ context.Context, project string) ([]Resource, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := []Resource{}
	for id, n := range f.notes {
		if n.project == project {
			out = append(out, Resource{Kind: "note", ID: id, Title: n.title, Project: project})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}
