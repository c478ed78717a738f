package notes

import (
	"strings"
	"testing"
)

func (f *fixture) edit(v int64, key, text string) map[string]any {
	a := edit(v, key, text)
	a["tab_id"] = f.tab
	return a
}

func TestEditNoteTabSavesAndBumps(t *testing.T) {
	f := newFixture(t, Options{})
	var seen []int64
	f.s.OnChange(func(id string, v int64) { seen = append(seen, v) })
	r := f.call(ToolEditNoteTab, f.edit(1, "key-00000001", "hello"))
	if r.IsError {
		t.Fatalf("edit failed: %s", r.Text)
	}
	b := body(t, r)
	if b["status"] != "saved" || b["version"].(float64) != 2 || b["replayed"] != false {
		t.Fatalf("unexpected result %v", b)
	}
	if got := f.text(); got != "hello" {
		t.Fatalf("text = %q", got)
	}
	if len(seen) != 1 || seen[0] != 2 {
		t.Fatalf("OnChange saw %v, want [2]", seen)
	}
}

func TestConflictIsResultWithCurrentVersion(t *testing.T) {
	f := newFixture(t, Options{})
	if r := f.call(ToolEditNoteTab, f.edit(1, "key-00000001", "person")); r.IsError {
		t.Fatal(r.Text)
	}
	r := f.call(ToolEditNoteTab, f.edit(1, "key-00000002", "agent stale"))
	b := body(t, r)
	if !r.IsError || b["error"] != "version_conflict" || b["current_version"].(float64) != 2 {
		t.Fatalf("want version_conflict with current_version 2, got %s", r.Text)
	}
	if !strings.Contains(b["message"].(string), "re-apply") || !strings.Contains(b["message"].(string), "NEW idempotency_key") {
		t.Fatalf("conflict message does not tell the model to re-apply with a new key: %s", b["message"])
	}
	if got := f.text(); got != "person" {
		t.Fatalf("stale write overwrote the person: %q", got)
	}
	// The conflicted key was not consumed: nothing was written under it.
	if r := f.call(ToolEditNoteTab, f.edit(2, "key-00000002", "person\nagent")); r.IsError {
		t.Fatalf("re-applied write refused: %s", r.Text)
	}
}

func TestIdempotency(t *testing.T) {
	f := newFixture(t, Options{})
	first := body(t, f.call(ToolEditNoteTab, f.edit(1, "key-00000001", "a")))
	// Same key, same intent (even with a refreshed version): first result, replayed, no second write.
	again := f.call(ToolEditNoteTab, f.edit(2, "key-00000001", "a"))
	b := body(t, again)
	if again.IsError || b["replayed"] != true || b["version"] != first["version"] {
		t.Fatalf("repeat not replayed: %s", again.Text)
	}
	if f.version() != 2 {
		t.Fatalf("replay wrote again: version %d", f.version())
	}
	// Same key, different arguments: refused, not replayed.
	other := f.call(ToolEditNoteTab, f.edit(2, "key-00000001", "b"))
	if !other.IsError || !strings.Contains(other.Text, "already used for a different write") {
		t.Fatalf("key reuse with other args not refused: %s", other.Text)
	}
	if f.text() != "a" || f.version() != 2 {
		t.Fatal("refused reuse changed the note")
	}
	// Keys are per workspace: the same key in another workspace is unrelated.
	if _, err := f.s.CreateWorkspace(t.Context(), "ws-2", "Other"); err != nil {
		t.Fatal(err)
	}
	r := f.callIn("ws-2", ToolEditNoteTab, f.edit(2, "key-00000001", "a"))
	if !r.IsError || !strings.Contains(r.Text, "not found") {
		t.Fatalf("a Note of ws-1 must be invisible from ws-2: %s", r.Text)
	}
}

func TestBadInput(t *testing.T) {
	f := newFixture(t, Options{})
	other, err := f.s.CreateNote(t.Context(), NewNote{ID: "note-2", Workspace: "ws-1", Title: "Other"})
	if err != nil {
		t.Fatal(err)
	}
	sheet := body(t, f.call(ToolCreateNoteTab, map[string]any{"note_id": "note-1", "expected_version": 1,
		"idempotency_key": "create-sheet-1", "kind": "sheet", "title": "Owners"}))["tab_id"].(string)
	without := func(k string) map[string]any { a := f.edit(2, "key-bad-0001", "x"); delete(a, k); return a }
	with := func(k string, v any) map[string]any { a := f.edit(2, "key-bad-0001", "x"); a[k] = v; return a }
	cases := []struct {
		name string
		tool string
		args map[string]any
		want string
	}{
		{"missing expected_version", ToolEditNoteTab, without("expected_version"), "missing required argument expected_version"},
		{"string expected_version", ToolEditNoteTab, with("expected_version", "seven"), "invalid expected_version"},
		{"fractional expected_version", ToolEditNoteTab, with("expected_version", 1.5), "invalid expected_version"},
		{"zero expected_version", ToolEditNoteTab, with("expected_version", 0), "expected_version"},
		{"missing idempotency_key", ToolEditNoteTab, without("idempotency_key"), "missing required argument idempotency_key"},
		{"short idempotency_key", ToolEditNoteTab, with("idempotency_key", "k1"), "invalid idempotency_key"},
		{"numeric idempotency_key", ToolEditNoteTab, with("idempotency_key", 12345678), "invalid idempotency_key"},
		{"missing operation", ToolEditNoteTab, without("operation"), "missing required argument operation"},
		{"unknown operation", ToolEditNoteTab, with("operation", "append"), "invalid operation"},
		{"unknown argument", ToolEditNoteTab, with("workspace_id", "ws-2"), `unknown argument "workspace_id"`},
		{"missing text", ToolEditNoteTab, without("text"), "missing argument text"},
		{"huge text", ToolEditNoteTab, with("text", strings.Repeat("x", MaxTextBytes+1)), "at most 1048576 bytes"},
		{"tab of another note", ToolEditNoteTab, with("tab_id", other.Tabs[0].ID), "is not a tab of note note-1"},
		{"unknown tab", ToolEditNoteTab, with("tab_id", "tab-nope"), "is not a tab of note note-1"},
		{"wrong kind", ToolEditNoteTab, with("tab_id", sheet), "cannot edit a sheet tab"},
		{"range past 100 rows", ToolReadSheetRange, map[string]any{"note_id": "note-1", "tab_id": sheet, "row_count": 101, "col_count": 5}, "invalid row_count 101: must be at most 100"},
		{"range past 100 cols", ToolReadSheetRange, map[string]any{"note_id": "note-1", "tab_id": sheet, "row_count": 5, "col_count": 1000}, "invalid col_count 1000"},
		{"write past 100 rows", ToolEditNoteTab, map[string]any{"note_id": "note-1", "tab_id": sheet, "expected_version": 2, "idempotency_key": "key-bad-0002",
			"operation": "sheet_set_range", "values": make([][]any, 101)}, "values has 101 rows; at most 100"},
		{"record without version", ToolEditRecordItem, map[string]any{"record_channel_id": "rc", "item_id": "i", "values": map[string]any{"status": "x"}, "idempotency_key": "key-bad-0003"}, "missing required argument expected_version"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := f.version()
			r := f.call(c.tool, c.args)
			if !r.IsError || !strings.Contains(r.Text, c.want) {
				t.Fatalf("want error containing %q, got %q", c.want, r.Text)
			}
			if f.version() != before {
				t.Fatal("refused call changed the note")
			}
		})
	}
}
