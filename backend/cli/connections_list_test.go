package cli

import (
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/appdir"
	"github.com/osfoundry/desktop/backend/connect"
)

// TestConnectionsListShowsLinkedChats: a chat that linked itself to a
// project is listed under its connection and project, with what happens
// to work assigned to it; a chat linked to a project the connection no
// longer has is not.
func TestConnectionsListShowsLinkedChats(t *testing.T) {
	t.Setenv(appdir.EnvHome, t.TempDir())
	_, out, _ := runCLI(t, "connections", "add", "Claude", "Claude research")
	id := strings.Fields(out)[0]
	for _, p := range []string{"proj-a", "proj-b"} {
		if code, out, errs := runCLI(t, "connections", "add-project", id, p); code != 0 {
			t.Fatalf("add-project: %s%s", out, errs)
		}
	}
	if code, _, _ := runCLI(t, "connections", "list"); code != 0 {
		t.Fatal("list failed") // opens the database once, with its schema
	}
	db, _, err := openAppDB()
	if err != nil {
		t.Fatal(err)
	}
	// What link_current_chat stores (its own tests call it over the endpoint).
	for _, l := range []struct{ project, label string }{{"proj-a", "Launch planning"}, {"proj-gone", "Old chat"}, {"proj-a", "Evil\x1b]0;x\x07"}} {
		if _, err := db.Exec(`INSERT INTO connect_chat_links (connection_id, project, label, linked_at) VALUES (?, ?, ?, ?)`,
			id, l.project, l.label, 1764870000000); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	code, out, errs := runCLI(t, "connections", "list")
	if code != 0 {
		t.Fatalf("list: %d %s", code, errs)
	}
	_, below, ok := strings.Cut(out, "\nLinked chats\n")
	if !ok {
		t.Fatalf("no linked chats below the connections:\n%s", out)
	}
	wantOrder := []string{"Claude research (" + id + ")", "  project proj-a", `    chat "Launch planning"`, connect.TextChatWaits}
	at := 0
	for _, w := range wantOrder {
		i := strings.Index(below[at:], w)
		if i < 0 {
			t.Fatalf("linked chats lack %q after byte %d:\n%s", w, at, below)
		}
		at += i + len(w)
	}
	if strings.Contains(out, "Old chat") || strings.Contains(out, "proj-gone") {
		t.Errorf("a chat linked to a project the connection does not have is listed:\n%s", out)
	}
	if strings.ContainsRune(out, '\x1b') || strings.ContainsRune(out, '\x07') {
		t.Errorf("a chat's label reaches the terminal unescaped:\n%q", out)
	}

	page, _, _ := helpRun("connections", "--help")
	if !strings.Contains(page, "linked chats") && !strings.Contains(page, "chats linked") {
		t.Errorf("connections --help does not say list shows linked chats:\n%s", page)
	}
}
