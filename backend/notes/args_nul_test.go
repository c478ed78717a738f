package notes

import (
	"encoding/json"
	"strings"
	"testing"
)

// A NUL character in a tool argument is refused on the desktop as the team
// server must refuse it (PostgreSQL text cannot hold one); an escaped
// backslash before "u0000" is ordinary text.
func TestNULArgumentRefused(t *testing.T) {
	f := newFixture(t, Options{})
	args := `{"note_id":"note-1","tab_id":"` + f.tab + `","expected_version":1,"idempotency_key":"key-00000001",` +
		`"operation":"replace_text","text":"a\u0000b"}`
	r := f.call(ToolEditNoteTab, json.RawMessage(args))
	if !r.IsError || !strings.Contains(r.Text, "NUL character") {
		t.Fatalf("a NUL in the text: %s, want a refusal that names it", r.Text)
	}
	if got := f.text(); got != "first line" {
		t.Fatalf("the refused write changed the tab: %q", got)
	}
	ok := strings.Replace(args, `a\u0000b`, `a\\u0000b`, 1)
	if r := f.call(ToolEditNoteTab, json.RawMessage(ok)); r.IsError {
		t.Fatalf("a backslash before u0000 was refused: %s", r.Text)
	}
	if got := f.text(); got != `a\u0000b` {
		t.Fatalf("text = %q, want the backslash kept", got)
	}
}
