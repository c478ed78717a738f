package teamclient

import (
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
)

// Record channels travel with a synced project: alice's board, with its
// statuses and items, reaches bob's desktop; a status change on one
// appears on the other live; both edit the same item offline, one wins
// and the other keeps the person's item as "(your version)" beside it.
func testRecordsSync(t *testing.T, tm *teamtest.Team) {
	a, b := aliceAndBob(t, tm)

	home, err := a.notes.CreateWorkspace(bg, "", "Personal")
	must(t, err)
	pr, err := a.notes.CreateProject(bg, home.ID, "", "Launch")
	must(t, err)
	board, err := a.notes.CreateRecordBoard(bg, home.ID, pr.ID, "Tasks", []string{"Todo", "Doing", "Done"})
	must(t, err)
	task, err := a.notes.AddRecord(bg, board.ID, "Write the post", "Todo", "500 words")
	must(t, err)

	if _, err := a.r.ShareProject(bg, tm.Workspace, pr.ID); err != nil {
		t.Fatal(err)
	}
	must(t, a.r.Sync(bg))
	must(t, b.r.JoinProject(bg, tm.Workspace, pr.ID))
	got, err := b.notes.RecordBoardByID(bg, board.ID)
	if err != nil || strings.Join(got.Statuses, ",") != "Todo,Doing,Done" || got.Project != pr.ID {
		t.Fatalf("bob's board: %+v %v", got, err)
	}
	if it := b.record(t, board.ID, task.ID); it.Status != "Todo" || recordBody(it) != "500 words" {
		t.Fatalf("bob's copy of the task: %+v", it)
	}

	// Live: a status change on one desktop appears on the other.
	stop := runReplicas(a, b)
	a.saveRecord(t, board.ID, task.ID, "Write the post", "Doing", "500 words")
	waitFor(t, "bob to see the task moved", func() bool { return b.record(t, board.ID, task.ID).Status == "Doing" })
	b.saveRecord(t, board.ID, task.ID, "Write the post", "Doing", "600 words")
	waitFor(t, "alice to see bob's edit", func() bool { return recordBody(a.record(t, board.ID, task.ID)) == "600 words" })
	stop()

	// Offline on both: alice syncs first and wins; bob's item is kept.
	a.saveRecord(t, board.ID, task.ID, "Write the post", "Done", "600 words")
	b.saveRecord(t, board.ID, task.ID, "Write the post (bob)", "Doing", "700 words")
	must(t, a.r.Sync(bg))
	must(t, b.r.Sync(bg))
	if it := b.record(t, board.ID, task.ID); it.Status != "Done" || it.Title != "Write the post" {
		t.Fatalf("bob's item after losing the race: %+v", it)
	}
	var kept notes.RecordItem
	items, err := b.notes.ListRecords(bg, board.ID)
	must(t, err)
	for _, it := range items {
		if it.Title == "Write the post (bob) (your version)" {
			kept = it
		}
	}
	if kept.ID == "" || kept.Status != "Doing" || recordBody(kept) != "700 words" {
		t.Fatalf("bob's kept item: %+v among %+v", kept, items)
	}
	if !strings.Contains(strings.Join(b.events.all(), "\n"), EventKeptRecord+` {"recordChannelId":"`+board.ID+`","recordId":"`+task.ID+`","copyId":"`+kept.ID+`"`) {
		t.Fatalf("bob's window was not told of the kept item: %v", b.events.all())
	}
	must(t, b.r.Sync(bg))
	must(t, a.r.Sync(bg))
	if it := a.record(t, board.ID, kept.ID); it.Title != kept.Title {
		t.Fatalf("alice does not see bob's kept item: %+v", it)
	}
}

func (d *syncDesktop) record(t *testing.T, ch, id string) notes.RecordItem {
	t.Helper()
	it, err := d.notes.GetRecord(bg, ch, id)
	if err != nil {
		return notes.RecordItem{Title: "(" + err.Error() + ")"}
	}
	return it
}

// saveRecord saves as the person's Records editor does.
func (d *syncDesktop) saveRecord(t *testing.T, ch, id, title, status, body string) {
	t.Helper()
	it, err := d.notes.GetRecord(bg, ch, id)
	must(t, err)
	res, err := d.notes.SaveRecordAsPerson(bg, ch, id, it.Version, notes.RecordEdit{Title: title, Status: status, Body: body})
	if err != nil || !res.Saved {
		t.Fatalf("saving record %s: %+v %v", id, res, err)
	}
}
