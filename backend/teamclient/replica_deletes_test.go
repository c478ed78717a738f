package teamclient

import (
	"errors"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
)

// Deletes travel with a synced project: an article and a Record alice
// deletes are gone from the server (its MCP endpoint no longer lists
// them) and from bob's desktop; a knowledge base she deletes offline
// waits, across a restart, and goes when the server is back; a delete
// that meets a teammate's edit never removes the edit — her delete of an
// item bob edited meanwhile brings the item back with his edit, and bob's
// edit of an article she deleted is kept and shared again — and each
// desktop's window is told.
func testDeletesSync(t *testing.T, tm *teamtest.Team) {
	a, b := aliceAndBob(t, tm)

	home, err := a.notes.CreateWorkspace(bg, "", "Personal")
	must(t, err)
	pr, err := a.notes.CreateProject(bg, home.ID, "", "Ops")
	must(t, err)
	kb, err := a.notes.CreateKnowledgeBase(bg, home.ID, pr.ID, "", "Runbooks")
	must(t, err)
	restart, err := a.notes.PutArticle(bg, kb.ID, "", "Restart", "systemctl restart app")
	must(t, err)
	backup, err := a.notes.PutArticle(bg, kb.ID, "", "Backup", "pg_dump nightly")
	must(t, err)
	deploy, err := a.notes.PutArticle(bg, kb.ID, "", "Deploy", "make deploy")
	must(t, err)
	old, err := a.notes.CreateKnowledgeBase(bg, home.ID, pr.ID, "", "Old notes")
	must(t, err)
	oldArt, err := a.notes.PutArticle(bg, old.ID, "", "2019", "outdated")
	must(t, err)
	board, err := a.notes.CreateRecordBoard(bg, home.ID, pr.ID, "Incidents", []string{"Open", "Closed"})
	must(t, err)
	inc1, err := a.notes.AddRecord(bg, board.ID, "Disk full", "Open", "")
	must(t, err)
	inc2, err := a.notes.AddRecord(bg, board.ID, "Slow queries", "Open", "")
	must(t, err)
	if _, err := a.r.ShareProject(bg, tm.Workspace, pr.ID); err != nil {
		t.Fatal(err)
	}
	must(t, a.r.Sync(bg))
	must(t, b.r.JoinProject(bg, tm.Workspace, pr.ID))
	mcp, _ := tm.Connect(t, "Claude", nil, pr.ID)
	listed := func(tool string, args map[string]any, id string) bool {
		t.Helper()
		res, err := mcp.Call(bg, tool, args)
		if err != nil || res.IsError {
			t.Fatalf("%s through the server's MCP endpoint: %+v %v", tool, res, err)
		}
		return strings.Contains(res.Text, id)
	}
	records := map[string]any{"record_channel_id": board.ID}
	resources := map[string]any{"project_id": pr.ID}
	if !listed("list_record_items", records, inc1.ID) || !listed("list_project_resources", resources, old.ID) {
		t.Fatal("the server's MCP endpoint does not list the synced items before the deletes")
	}

	// Online: deleted on alice's desktop, gone on the server and on bob's.
	must(t, a.notes.DeleteArticle(bg, kb.ID, backup.ID))
	must(t, a.notes.DeleteRecordItem(bg, board.ID, inc1.ID))
	must(t, a.r.Sync(bg))
	if got := serverArticle(tm, backup.ID)(); !strings.Contains(got, "no rows") && !strings.Contains(got, "not found") {
		t.Fatalf("the server still has the deleted article: %s", got)
	}
	if listed("list_record_items", records, inc1.ID) {
		t.Fatal("the server's MCP endpoint still lists the deleted Record")
	}
	if res, err := mcp.Call(bg, "read_knowledge_article", map[string]any{"knowledge_base_id": kb.ID, "article_id": backup.ID}); err != nil || !res.IsError {
		t.Fatalf("the server's MCP endpoint still reads the deleted article: %+v %v", res, err)
	}
	must(t, b.r.Sync(bg))
	if _, err := b.notes.GetArticle(bg, kb.ID, backup.ID); !errorsIsNotFound(err) {
		t.Fatalf("bob still has the deleted article: %v", err)
	}
	if _, err := b.notes.GetRecord(bg, board.ID, inc1.ID); !errorsIsNotFound(err) {
		t.Fatalf("bob still has the deleted Record: %v", err)
	}

	// Offline: a knowledge base deleted with no network waits, across a
	// restart of the app, and goes when the server is back.
	a.net.on.Store(true)
	must(t, a.notes.DeleteKnowledgeBase(bg, old.ID))
	if err := a.r.Sync(bg); !IsUnreachable(err) {
		t.Fatalf("a sync pass offline: %v", err)
	}
	a.open(t)
	if ps, err := a.r.Projects(bg); err != nil || len(ps.Synced) != 1 || ps.Synced[0].Pending != 1 {
		t.Fatalf("Settings → Team offline does not show the delete waiting: %+v %v", ps, err)
	}
	if !listed("list_project_resources", resources, old.ID) {
		t.Fatal("the knowledge base left the server while alice was offline")
	}
	a.net.on.Store(false)
	must(t, a.r.Sync(bg))
	if listed("list_project_resources", resources, old.ID) {
		t.Fatal("the server's MCP endpoint still lists the knowledge base deleted offline")
	}
	if got := serverArticle(tm, oldArt.ID)(); !strings.Contains(got, "no rows") && !strings.Contains(got, "not found") {
		t.Fatalf("the server still has the deleted base's article: %s", got)
	}
	if ps, err := a.r.Projects(bg); err != nil || ps.Synced[0].Pending != 0 {
		t.Fatalf("the delete still waits after it went: %+v %v", ps, err)
	}
	must(t, b.r.Sync(bg))
	if _, err := b.notes.KnowledgeBase(bg, old.ID); !errorsIsNotFound(err) {
		t.Fatalf("bob still has the deleted knowledge base: %v", err)
	}

	// Alice deletes a Record bob edited meanwhile: the edit wins, the
	// Record comes back on her desktop with it, and she is told.
	b.saveRecord(t, board.ID, inc2.ID, "Slow queries", "Closed", "added an index")
	must(t, b.r.Sync(bg))
	must(t, a.notes.DeleteRecordItem(bg, board.ID, inc2.ID))
	must(t, a.r.Sync(bg))
	if it := a.record(t, board.ID, inc2.ID); it.Status != "Closed" || recordBody(it) != "added an index" {
		t.Fatalf("alice's Record after her delete met bob's edit: %+v", it)
	}
	if !listed("list_record_items", records, inc2.ID) {
		t.Fatal("the edited Record left the server")
	}
	if !strings.Contains(strings.Join(a.events.all(), "\n"), EventKeptAfterDelete+` {"kind":"record","id":"`+inc2.ID+`"`) {
		t.Fatalf("alice's window was not told her delete met an edit: %v", a.events.all())
	}

	// The same for a whole knowledge base: bob edited an article of it.
	b.saveArticle(t, kb.ID, deploy.ID, "make deploy ENV=prod")
	must(t, b.r.Sync(bg))
	must(t, a.notes.DeleteKnowledgeBase(bg, kb.ID))
	must(t, a.r.Sync(bg))
	if got := a.article(t, kb.ID, deploy.ID); got != "make deploy ENV=prod" {
		t.Fatalf("alice's knowledge base after her delete met bob's edit: %q", got)
	}
	if got := a.article(t, kb.ID, restart.ID); got != "systemctl restart app" {
		t.Fatalf("the base came back without its other article: %q", got)
	}
	if !strings.Contains(strings.Join(a.events.all(), "\n"), EventKeptAfterDelete+` {"kind":"kb","id":"`+kb.ID+`"`) {
		t.Fatalf("alice's window was not told her base delete met an edit: %v", a.events.all())
	}

	// Bob edits an article offline that alice deletes: his edit is kept,
	// goes up again, and reaches alice.
	b.net.on.Store(true)
	b.saveArticle(t, kb.ID, restart.ID, "systemctl restart app --now")
	must(t, a.notes.DeleteArticle(bg, kb.ID, restart.ID))
	must(t, a.r.Sync(bg))
	if got := serverArticle(tm, restart.ID)(); !strings.Contains(got, "no rows") && !strings.Contains(got, "not found") {
		t.Fatalf("the server still has alice's deleted article: %s", got)
	}
	b.net.on.Store(false)
	must(t, b.r.Sync(bg))
	must(t, b.r.Sync(bg))
	if got := b.article(t, kb.ID, restart.ID); got != "systemctl restart app --now" {
		t.Fatalf("bob's edited article after alice's delete: %q", got)
	}
	if got := serverArticle(tm, restart.ID)(); !strings.Contains(got, `"systemctl restart app --now"`) {
		t.Fatalf("bob's kept article did not go up again: %s", got)
	}
	if !strings.Contains(strings.Join(b.events.all(), "\n"), EventKeptAfterDelete+` {"kind":"article","id":"`+restart.ID+`"`) {
		t.Fatalf("bob's window was not told his edit was kept: %v", b.events.all())
	}
	must(t, a.r.Sync(bg))
	if got := a.article(t, kb.ID, restart.ID); got != "systemctl restart app --now" {
		t.Fatalf("alice does not see bob's kept article: %q", got)
	}
}

func errorsIsNotFound(err error) bool { return errors.Is(err, notes.ErrNotFound) }
