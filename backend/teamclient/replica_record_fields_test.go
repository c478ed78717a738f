package teamclient

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
	"github.com/osfoundry/desktop/backend/tools"
)

// A Record's other fields travel with it, not only title, status and
// body: the assignee, labels and due date alice's item holds reach bob;
// an assistant on the team server reassigning it reaches both desktops
// with the body intact; a field an assistant on alice's desktop sets goes
// up; a field removed here is removed on the server and on bob's.
func testRecordFieldsSync(t *testing.T, tm *teamtest.Team) {
	a, b := aliceAndBob(t, tm)

	home, err := a.notes.CreateWorkspace(bg, "", "Personal")
	must(t, err)
	pr, err := a.notes.CreateProject(bg, home.ID, "", "Support")
	must(t, err)
	board, err := a.notes.CreateRecordBoard(bg, home.ID, pr.ID, "Tickets", []string{"Open", "Closed"})
	must(t, err)
	tk, err := a.notes.CreateRecordItem(bg, board.ID, "", "Printer on fire", "Open", map[string]any{
		notes.BodyField: "third floor", "assignee": "alice", "labels": []any{"hardware"}, "due": "2026-12-24"})
	must(t, err)
	if _, err := a.r.ShareProject(bg, tm.Workspace, pr.ID); err != nil {
		t.Fatal(err)
	}
	must(t, a.r.Sync(bg))
	must(t, b.r.JoinProject(bg, tm.Workspace, pr.ID))
	want := `{"assignee":"alice","body":"third floor","due":"2026-12-24","labels":["hardware"]}`
	if got := fieldsOf(b.record(t, board.ID, tk.ID)); got != want {
		t.Fatalf("bob's fields: %s, want %s", got, want)
	}

	// An assistant on the team server reassigns it and adds a label.
	mcp, _ := tm.Connect(t, "Claude", nil, pr.ID)
	res, err := mcp.Call(bg, notes.ToolEditRecordItem, map[string]any{"record_channel_id": board.ID, "item_id": tk.ID,
		"values": map[string]any{"assignee": "bob", "labels": []string{"hardware", "urgent"}}, "expected_version": serverRecordVersion(t, tm, tk.ID), "idempotency_key": "reassign-1"})
	if err != nil || res.IsError {
		t.Fatalf("the assistant's edit: %+v %v", res, err)
	}
	must(t, b.r.Sync(bg))
	must(t, a.r.Sync(bg))
	want = `{"assignee":"bob","body":"third floor","due":"2026-12-24","labels":["hardware","urgent"]}`
	for _, d := range []*syncDesktop{a, b} {
		if got := fieldsOf(d.record(t, board.ID, tk.ID)); got != want {
			t.Fatalf("%s's fields after the assistant's edit: %s, want %s", d.user, got, want)
		}
	}

	// An assistant on alice's desktop moves the due date.
	edit, ok := a.notes.Tool(notes.ToolEditRecordItem)
	if !ok {
		t.Fatal("no edit_record_item on the desktop")
	}
	args, _ := json.Marshal(map[string]any{"record_channel_id": board.ID, "item_id": tk.ID, "values": map[string]any{"due": "2027-01-10"},
		"expected_version": a.record(t, board.ID, tk.ID).Version, "idempotency_key": "move-due-date-1"})
	if r, err := edit.Handler(bg, tools.Call{Workspace: home.ID, Tool: notes.ToolEditRecordItem, Args: args}); err != nil || r.IsError {
		t.Fatalf("the desktop assistant's edit: %+v %v", r, err)
	}
	must(t, a.r.Sync(bg))
	want = `{"assignee":"bob","body":"third floor","due":"2027-01-10","labels":["hardware","urgent"]}`
	if got := serverRecordFields(t, tm, tk.ID); got != want {
		t.Fatalf("the server's fields after alice's desktop edit: %s, want %s", got, want)
	}
	must(t, b.r.Sync(bg))
	if got := fieldsOf(b.record(t, board.ID, tk.ID)); got != want {
		t.Fatalf("bob's fields after alice's desktop edit: %s, want %s", got, want)
	}

	// A field removed on bob's desktop is removed everywhere.
	it := b.record(t, board.ID, tk.ID)
	delete(it.Fields, "labels")
	if res, err := b.notes.SaveRecordFieldsAsPerson(bg, board.ID, tk.ID, it.Version, it.Title, "Closed", it.Fields); err != nil || !res.Saved {
		t.Fatalf("bob's save: %+v %v", res, err)
	}
	must(t, b.r.Sync(bg))
	must(t, a.r.Sync(bg))
	want = `{"assignee":"bob","body":"third floor","due":"2027-01-10"}`
	if got := serverRecordFields(t, tm, tk.ID); got != want {
		t.Fatalf("the server's fields after bob removed one: %s, want %s", got, want)
	}
	if it := a.record(t, board.ID, tk.ID); fieldsOf(it) != want || it.Status != "Closed" {
		t.Fatalf("alice's item after bob removed a field: %+v", it)
	}
}

func fieldsOf(it notes.RecordItem) string {
	if it.Fields == nil {
		return it.Title
	}
	b, _ := json.Marshal(it.Fields)
	return string(b)
}

func serverRecordVersion(t *testing.T, tm *teamtest.Team, id string) int64 {
	t.Helper()
	var v int64
	must(t, tm.Pool().QueryRow(bg, `SELECT version FROM record_items WHERE id = $1`, id).Scan(&v))
	return v
}

// serverRecordFields is the server's fields of an item, as JSON with
// sorted keys.
func serverRecordFields(t *testing.T, tm *teamtest.Team, id string) string {
	t.Helper()
	var raw string
	if err := tm.Pool().QueryRow(bg, `SELECT fields::text FROM record_items WHERE id = $1`, id).Scan(&raw); err != nil {
		return fmt.Sprintf("server: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		return raw
	}
	b, _ := json.Marshal(m)
	return string(b)
}
