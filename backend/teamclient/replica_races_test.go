package teamclient

import (
	"encoding/json"
	"path/filepath"
	"sync"
	"testing"

	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
)

// A save this desktop's outbox has not seen yet — made by another
// osFoundry process on the same database, or by the person a moment before
// the save's own notice runs — is never replaced by a teammate's text: the
// pull leaves it, queues it, and sending it keeps it as a draft beside the
// teammate's text. Several notices of one save queue it once, so the
// server never takes the same text twice (which made a teammate's next
// edit lose a race it had not run).
func testSaveNotSeenYetIsKept(t *testing.T, tm *teamtest.Team) {
	a, b := aliceAndBob(t, tm)
	home, err := a.notes.CreateWorkspace(bg, "", "Personal")
	must(t, err)
	p, err := a.notes.CreateProject(bg, home.ID, "", "Hiring")
	must(t, err)
	q, err := a.notes.CreateNote(bg, notes.NewNote{Workspace: home.ID, Project: p.ID, Title: "Roles", Text: "- designer"})
	must(t, err)
	_, err = a.r.ShareProject(bg, tm.Workspace, p.ID)
	must(t, err)
	must(t, a.r.Sync(bg))
	must(t, b.r.JoinProject(bg, tm.Workspace, p.ID))

	// Bob's other process saves; alice's edit reaches the server first.
	other := b.otherProcess(t)
	n, err := other.GetNote(bg, q.ID)
	must(t, err)
	if res, err := other.SaveTabAsPerson(bg, q.ID, n.Tabs[0].ID, n.Version, "- designer\n- bob: tester"); err != nil || !res.Saved {
		t.Fatalf("bob's other process saving: %+v %v", res, err)
	}
	a.edit(t, q.ID, "- designer\n- alice: writer")
	must(t, a.r.Sync(bg))

	must(t, b.r.Sync(bg))
	if got := b.text(t, q.ID); got != "- designer\n- bob: tester" {
		t.Fatalf("bob's unsent save was replaced by the pull: %q (%s)", got, b.state(t, q.ID)())
	}
	must(t, b.r.Sync(bg))
	if got := b.text(t, q.ID); got != "- designer\n- alice: writer" {
		t.Fatalf("bob after his save lost the race: %q", got)
	}
	dr, err := b.notes.GetDraft(bg, q.ID, b.tab(t, q.ID))
	if err != nil {
		t.Fatalf("bob's save was not kept as a draft: %v", err)
	}
	var draft struct{ Mine string }
	must(t, json.Unmarshal([]byte(dr.Data), &draft))
	if draft.Mine != "- designer\n- bob: tester" {
		t.Fatalf("bob's draft: %+v", draft)
	}

	// Notices of one save, all at once, queue it once.
	n, err = other.GetNote(bg, q.ID)
	must(t, err)
	if res, err := other.SaveTabAsPerson(bg, q.ID, n.Tabs[0].ID, n.Version, "- designer\n- alice: writer\n- bob: tester"); err != nil || !res.Saved {
		t.Fatalf("bob re-applying: %+v %v", res, err)
	}
	// Two notices at a time (the save's own and a copy's being put), many
	// times over: each time the save is queued once.
	for round := range 40 {
		if round > 0 {
			_, err := b.r.db.Exec(`DELETE FROM team_sync_outbox WHERE note_id = ?`, q.ID)
			must(t, err)
		}
		var wg sync.WaitGroup
		start := make(chan struct{})
		for range 2 {
			wg.Go(func() {
				<-start
				b.r.noteChanged(q.ID, 0)
			})
		}
		close(start)
		wg.Wait()
		var queued int
		must(t, b.r.db.QueryRow(`SELECT count(*) FROM team_sync_outbox WHERE note_id = ?`, q.ID).Scan(&queued))
		if queued != 1 {
			t.Fatalf("one save queued %d times (round %d)", queued, round)
		}
	}
	before := serverVersion(tm, q.ID)
	must(t, b.r.Sync(bg))
	if v := serverVersion(tm, q.ID); v != before+1 {
		t.Fatalf("one save moved the server's version from %d to %d", before, v)
	}
	must(t, a.r.Sync(bg))
	if got := a.text(t, q.ID); got != "- designer\n- alice: writer\n- bob: tester" {
		t.Fatalf("alice after bob re-applied: %q", got)
	}
}

// otherProcess opens the desktop's database a second time, as the
// osfoundry command or a second window does: its saves reach the same
// file but none of this replica's notices.
func (d *syncDesktop) otherProcess(t *testing.T) *notes.Store {
	t.Helper()
	db, err := store.Open(filepath.Join(d.dir, "osfoundry.db"))
	must(t, err)
	t.Cleanup(func() { db.Close() })
	st, err := notes.Open(db, filepath.Join(d.dir, "knowledge"))
	must(t, err)
	return st
}

func serverVersion(tm *teamtest.Team, noteID string) int64 {
	var v int64
	_ = tm.Pool().QueryRow(bg, `SELECT version FROM notes WHERE id = $1`, noteID).Scan(&v)
	return v
}
