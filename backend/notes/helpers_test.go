package notes

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/tools"
)

// fixture is a store with one workspace "ws-1", project "proj-a" and Note
// "note-1" holding a text tab.
type fixture struct {
	t    *testing.T
	s    *Store
	dir  string
	note Note
	tab  string // the text tab
}

func newFixture(t *testing.T, opts Options) *fixture {
	t.Helper()
	dir := t.TempDir()
	db, err := store.Open(filepath.Join(dir, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s, err := OpenWith(db, filepath.Join(dir, "knowledge"), opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := s.CreateWorkspace(ctx, "ws-1", "Team"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateProject(ctx, "ws-1", "proj-a", "Launch Q3"); err != nil {
		t.Fatal(err)
	}
	n, err := s.CreateNote(ctx, NewNote{ID: "note-1", Workspace: "ws-1", Project: "proj-a", Title: "Q3 launch checklist", Text: "first line"})
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, s: s, dir: dir, note: n, tab: n.Tabs[0].ID}
}

// call runs tool with args (a map or raw JSON) in workspace ws-1.
func (f *fixture) call(tool string, args any) tools.Result {
	f.t.Helper()
	return f.callIn("ws-1", tool, args)
}

func (f *fixture) callIn(ws, tool string, args any) tools.Result {
	f.t.Helper()
	tl, ok := f.s.Tool(tool)
	if !ok {
		f.t.Fatalf("no tool %s", tool)
	}
	raw, ok := args.(json.RawMessage)
	if !ok {
		b, err := json.Marshal(args)
		if err != nil {
			f.t.Fatal(err)
		}
		raw = b
	}
	r, err := tl.Handler(context.Background(), tools.Call{Workspace: ws, Tool: tool, Args: raw})
	if err != nil {
		f.t.Fatalf("%s: %v", tool, err)
	}
	return r
}

// body decodes a result's JSON text.
func body(t *testing.T, r tools.Result) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Text), &m); err != nil {
		t.Fatalf("result is not JSON: %q", r.Text)
	}
	return m
}

func (f *fixture) version() int64 {
	f.t.Helper()
	n, err := f.s.NoteInfo(context.Background(), "note-1")
	if err != nil {
		f.t.Fatal(err)
	}
	return n.Version
}

func (f *fixture) text() string {
	f.t.Helper()
	n, err := f.s.GetNote(context.Background(), "note-1")
	if err != nil {
		f.t.Fatal(err)
	}
	for _, tb := range n.Tabs {
		if tb.ID == f.tab {
			return *tb.Text
		}
	}
	f.t.Fatal("text tab missing")
	return ""
}

func edit(v int64, key, text string) map[string]any {
	return map[string]any{"note_id": "note-1", "tab_id": "", "expected_version": v, "idempotency_key": key,
		"operation": "replace_text", "text": text}
}
